// The words of the example badges (badges.ts) in the demo's languages, so a German, French, Arabic or
// Hebrew visitor reads carousels, cards and buttons in their language. Product names are the shop's
// brand names and stay as they are; each payload is a question the scripted agent knows in that language.

export interface BadgeWords {
  blurbs: [string, string, string, string];
  viewProduct: string;
  tellMeMore: string;
  askAbout: (product: string) => string;
  inStock: string;
  inStockAsk: (product: string) => string;
  buttons: [text: string, track: string, hours: string, visit: string];
  buttonsAlt: [text: string, order: string, returns: string, shipping: string];
  quick: [text: string, shipping: string, size: string, returns: string];
  quickAlt: [text: string, dayHike: string, camping: string, browsing: string];
  /** What each button sends: the questions behind `buttons`, `buttonsAlt`, `quick` and `quickAlt`. */
  asks: { order: string; hours: string; returns: string; shipping: string; size: string; dayHike: string; tent: string; bestsellers: string };
  carousel: [string, string];
  list: { title: string; items: Array<[string, string]> };
  stores: { title: string; boulder: string; denver: string; online: [string, string] };
  image: { alt: string; caption: string; title: string };
  sizeGuide: string;
}

const en: BadgeWords = {
  blurbs: ['€149 · 1.2 kg · rain cover included', '€229 · 3-layer waterproof, 20k/20k', '€179 · grippy Vibram sole, wide fit', '€389 · 1.9 kg · pitches in 3 minutes'],
  viewProduct: 'View product',
  tellMeMore: 'Tell me more',
  askAbout: (p) => `Tell me about the ${p}`,
  inStock: 'Is it in stock?',
  inStockAsk: (p) => `Is the ${p} in stock?`,
  buttons: ['What can I help you with?', 'Track my order', 'Opening hours', 'Visit our shop'],
  buttonsAlt: ['How can I help?', 'Where is my order?', 'Returns and refunds', 'Shipping'],
  quick: ['Pick one, or just type your question:', 'Shipping costs', 'Size advice', 'Returns'],
  quickAlt: ['Quick question for you: what are you planning?', 'Day hike', 'Camping trip', 'Just browsing'],
  asks: {
    order: 'Where is my order?', hours: 'What are your opening hours?', returns: 'How do returns work?', shipping: 'How much is shipping?',
    size: 'Which boot size should I pick?', dayHike: 'What do I need for a day hike?', tent: 'Which tent do you recommend?', bestsellers: 'Show me your bestsellers',
  },
  carousel: ['Our bestsellers this season:', 'New in for the season:'],
  list: { title: 'Day-hike checklist', items: [['Water, 2 litres', 'More on hot days'], ['Rain shell', 'Mountain weather changes fast'], ['Map and charged phone', 'Offline maps downloaded'], ['First-aid kit', 'Blister plasters included']] },
  stores: { title: 'Our stores', boulder: 'Mon–Sat 9:00–19:00', denver: 'Mon–Sat 10:00–20:00', online: ['Online', 'Always open, free shipping over €75'] },
  image: { alt: 'Map of the Flatirons loop trail', caption: 'Flatirons loop: 9.5 km, 450 m up', title: 'Trail map' },
  sizeGuide: 'Nimbus size guide.txt',
};

const de: BadgeWords = {
  blurbs: ['149 € · 1,2 kg · mit Regenhülle', '229 € · 3-Lagen, wasserdicht, 20k/20k', '179 € · griffige Vibram-Sohle, weite Passform', '389 € · 1,9 kg · in 3 Minuten aufgebaut'],
  viewProduct: 'Produkt ansehen',
  tellMeMore: 'Mehr erfahren',
  askAbout: (p) => `Erzählen Sie mir mehr über ${p}`,
  inStock: 'Ist es auf Lager?',
  inStockAsk: (p) => `Ist ${p} auf Lager?`,
  buttons: ['Wobei kann ich helfen?', 'Bestellung verfolgen', 'Öffnungszeiten', 'Zu unserem Shop'],
  buttonsAlt: ['Wie kann ich helfen?', 'Wo ist meine Bestellung?', 'Rücksendung und Erstattung', 'Versand'],
  quick: ['Wählen Sie eins, oder schreiben Sie Ihre Frage:', 'Versandkosten', 'Größenberatung', 'Rücksendungen'],
  quickAlt: ['Kurze Frage: Was haben Sie vor?', 'Tageswanderung', 'Campingtour', 'Nur stöbern'],
  asks: {
    order: 'Wo ist meine Bestellung?', hours: 'Wann haben Sie geöffnet?', returns: 'Wie funktioniert die Rücksendung?', shipping: 'Was kostet der Versand?',
    size: 'Welche Schuhgröße soll ich wählen?', dayHike: 'Was brauche ich für eine Tageswanderung?', tent: 'Welches Zelt empfehlen Sie?', bestsellers: 'Zeigen Sie mir Ihre Bestseller',
  },
  carousel: ['Unsere Bestseller der Saison:', 'Neu in dieser Saison:'],
  list: { title: 'Checkliste für die Tageswanderung', items: [['Wasser, 2 Liter', 'An heißen Tagen mehr'], ['Regenjacke', 'Das Bergwetter ändert sich schnell'], ['Karte und geladenes Handy', 'Offline-Karten geladen'], ['Erste-Hilfe-Set', 'Mit Blasenpflastern']] },
  stores: { title: 'Unsere Läden', boulder: 'Mo–Sa 9:00–19:00', denver: 'Mo–Sa 10:00–20:00', online: ['Online', 'Immer geöffnet, Versand ab 75 € kostenlos'] },
  image: { alt: 'Karte des Flatirons-Rundwegs', caption: 'Flatirons-Runde: 9,5 km, 450 Höhenmeter', title: 'Wanderkarte' },
  sizeGuide: 'Nimbus Größentabelle.txt',
};

const fr: BadgeWords = {
  blurbs: ['149 € · 1,2 kg · housse de pluie incluse', '229 € · 3 couches imperméable, 20k/20k', '179 € · semelle Vibram adhérente, chaussant large', '389 € · 1,9 kg · montée en 3 minutes'],
  viewProduct: 'Voir le produit',
  tellMeMore: 'En savoir plus',
  askAbout: (p) => `Parlez-moi du ${p}`,
  inStock: 'Est-il disponible ?',
  inStockAsk: (p) => `Le ${p} est-il disponible ?`,
  buttons: ['Comment puis-je vous aider ?', 'Suivre ma commande', 'Horaires d’ouverture', 'Voir la boutique'],
  buttonsAlt: ['Que puis-je faire pour vous ?', 'Où en est ma commande ?', 'Retours et remboursements', 'Livraison'],
  quick: ['Choisissez, ou posez simplement votre question :', 'Frais de livraison', 'Conseil de taille', 'Retours'],
  quickAlt: ['Petite question : que préparez-vous ?', 'Randonnée à la journée', 'Séjour en camping', 'Je regarde'],
  asks: {
    order: 'Où en est ma commande ?', hours: 'Quels sont vos horaires ?', returns: 'Comment fonctionnent les retours ?', shipping: 'Combien coûte la livraison ?',
    size: 'Quelle pointure de chaussures choisir ?', dayHike: 'De quoi ai-je besoin pour une randonnée à la journée ?', tent: 'Quelle tente me conseillez-vous ?', bestsellers: 'Montrez-moi vos meilleures ventes',
  },
  carousel: ['Nos meilleures ventes de la saison :', 'Nouveautés de la saison :'],
  list: { title: 'Liste pour une randonnée à la journée', items: [['Eau, 2 litres', 'Davantage par forte chaleur'], ['Veste de pluie', 'La météo change vite en montagne'], ['Carte et téléphone chargé', 'Cartes hors ligne téléchargées'], ['Trousse de secours', 'Pansements anti-ampoules inclus']] },
  stores: { title: 'Nos magasins', boulder: 'lun.–sam. 9:00–19:00', denver: 'lun.–sam. 10:00–20:00', online: ['En ligne', 'Toujours ouvert, livraison gratuite dès 75 €'] },
  image: { alt: 'Carte de la boucle des Flatirons', caption: 'Boucle des Flatirons : 9,5 km, 450 m de dénivelé', title: 'Carte du sentier' },
  sizeGuide: 'Guide des tailles Nimbus.txt',
};

const ar: BadgeWords = {
  blurbs: ['149 € · 1.2 كغ · غطاء مطر مرفق', '229 € · ثلاث طبقات مقاومة للماء، 20k/20k', '179 € · نعل Vibram ثابت، مقاس واسع', '389 € · 1.9 كغ · تُنصب في 3 دقائق'],
  viewProduct: 'عرض المنتج',
  tellMeMore: 'أخبرني المزيد',
  askAbout: (p) => `أخبرني عن ${p}`,
  inStock: 'هل هو متوفر؟',
  inStockAsk: (p) => `هل ${p} متوفر؟`,
  buttons: ['بماذا يمكنني مساعدتك؟', 'تتبّع طلبي', 'ساعات العمل', 'زر متجرنا'],
  buttonsAlt: ['كيف أساعدك؟', 'أين طلبي؟', 'الإرجاع واسترداد المال', 'الشحن'],
  quick: ['اختر واحدًا، أو اكتب سؤالك:', 'تكلفة الشحن', 'نصيحة المقاس', 'الإرجاع'],
  quickAlt: ['سؤال سريع: ماذا تخطط؟', 'نزهة ليوم واحد', 'رحلة تخييم', 'أتصفح فقط'],
  asks: {
    order: 'أين طلبي؟', hours: 'ما هي ساعات العمل؟', returns: 'كيف يتم الإرجاع؟', shipping: 'كم تكلفة الشحن؟',
    size: 'ما مقاس الحذاء الذي عليّ اختياره؟', dayHike: 'ماذا أحتاج لنزهة ليوم واحد؟', tent: 'أي خيمة تنصحني بها؟', bestsellers: 'أرني المنتجات الأكثر مبيعًا',
  },
  carousel: ['الأكثر مبيعًا هذا الموسم:', 'الجديد هذا الموسم:'],
  list: { title: 'قائمة نزهة اليوم الواحد', items: [['ماء، لتران', 'أكثر في الأيام الحارة'], ['سترة مطر', 'طقس الجبال يتغير بسرعة'], ['خريطة وهاتف مشحون', 'خرائط محمّلة دون اتصال'], ['حقيبة إسعافات أولية', 'مع لصقات للبثور']] },
  stores: { title: 'متاجرنا', boulder: 'الاثنين–السبت 9:00–19:00', denver: 'الاثنين–السبت 10:00–20:00', online: ['عبر الإنترنت', 'مفتوح دائمًا، شحن مجاني فوق 75 €'] },
  image: { alt: 'خريطة مسار Flatirons الدائري', caption: 'مسار Flatirons الدائري: 9.5 كم، صعود 450 م', title: 'خريطة المسار' },
  sizeGuide: 'دليل مقاسات Nimbus.txt',
};

const he: BadgeWords = {
  blurbs: ['149 € · 1.2 ק״ג · כולל כיסוי גשם', '229 € · 3 שכבות, עמיד במים, 20k/20k', '179 € · סוליית Vibram אחיזתית, התאמה רחבה', '389 € · 1.9 ק״ג · מוקם ב־3 דקות'],
  viewProduct: 'לצפייה במוצר',
  tellMeMore: 'ספרו לי עוד',
  askAbout: (p) => `ספרו לי על ${p}`,
  inStock: 'יש במלאי?',
  inStockAsk: (p) => `האם ${p} במלאי?`,
  buttons: ['במה אפשר לעזור?', 'מעקב אחר ההזמנה', 'שעות פתיחה', 'לחנות שלנו'],
  buttonsAlt: ['איך אפשר לעזור?', 'איפה ההזמנה שלי?', 'החזרות והחזר כספי', 'משלוח'],
  quick: ['בחרו אחת, או פשוט כתבו את השאלה:', 'עלות משלוח', 'ייעוץ מידות', 'החזרות'],
  quickAlt: ['שאלה קצרה: מה אתם מתכננים?', 'טיול יום', 'טיול קמפינג', 'רק מסתכל/ת'],
  asks: {
    order: 'איפה ההזמנה שלי?', hours: 'מהן שעות הפתיחה?', returns: 'איך עובדות ההחזרות?', shipping: 'כמה עולה משלוח?',
    size: 'איזו מידת נעליים כדאי לי לבחור?', dayHike: 'מה אני צריך לטיול יום?', tent: 'איזה אוהל אתם ממליצים?', bestsellers: 'הראו לי את רבי המכר',
  },
  carousel: ['רבי המכר של העונה:', 'חדש העונה:'],
  list: { title: 'רשימת ציוד לטיול יום', items: [['מים, 2 ליטר', 'יותר בימים חמים'], ['מעיל גשם', 'מזג האוויר בהרים משתנה מהר'], ['מפה וטלפון טעון', 'מפות אופליין מורדות'], ['ערכת עזרה ראשונה', 'כולל פלסטרים לשלפוחיות']] },
  stores: { title: 'החנויות שלנו', boulder: 'ב׳–ש׳ 9:00–19:00', denver: 'ב׳–ש׳ 10:00–20:00', online: ['אונליין', 'תמיד פתוח, משלוח חינם מעל 75 €'] },
  image: { alt: 'מפת המסלול המעגלי של Flatirons', caption: 'מעגל Flatirons: 9.5 ק״מ, 450 מ׳ עלייה', title: 'מפת המסלול' },
  sizeGuide: 'מדריך המידות של Nimbus.txt',
};

const WORDS: Record<string, BadgeWords> = { en, de, fr, ar, he };

/** The badge words in the language of `locale` (a tag like `fr-CA`), else English. */
export function badgeWords(locale: unknown): BadgeWords {
  const lang = typeof locale === 'string' ? locale.slice(0, 2).toLowerCase() : 'en';
  return WORDS[lang] ?? en;
}

/** Every language's words, for tests that check each one. */
export const BADGE_LANGUAGES = Object.keys(WORDS);
