// What the scripted agent says on its topics, in the demo's languages. The BFF gives the agent the
// visitor's language as the user variable `locale` (LOCALE_VARIABLE); a language not here gets English.
// The badge keywords (`carousel`, `card`, `markdown`…) stay English; the badges they answer with
// speak the visitor's language (badge-words.ts).

export interface AgentWords {
  files: string;
  /** The hand-off button's title, also its payload: the widget's own "Talk to a person" in the language. */
  handoffButton: string;
  order: [string, string];
  hours: string;
  returns: string;
  shipping: string;
  sizes: string;
  stock: string;
  thanks: string;
  hello: (name: string | undefined) => [string, string];
  fallbacks: [string, string, string];
  /** Before the carousel of favourites. */
  favourites: string;
  /** Before the size guide file. */
  sizeGuide: string;
  /** After the trail map. */
  gpx: string;
  /** A product the visitor named, with its blurb in the language. */
  product: (name: string, blurb: string) => string;
  /** Gear asked about without naming a product. */
  gear: string;
  /** Sent at escalation while the team is there, before the operator picks up. */
  escalation: string;
  /** Sent at escalation while the team is away: no promise of an answer now (the widget says when it is back). */
  escalationAway: string;
  /** Something broke: how repairs and the warranty work. */
  repair: string;
}

const TRACK = 'https://nimbus-outdoor.example/track/NO-48213';
const ORDERS = 'https://nimbus-outdoor.example/account/orders';
const named = (name: string | undefined) => (name ? ` ${name}` : '');

const en: AgentWords = {
  files: 'Thanks, I have your files. Give me a moment to look at them.',
  handoffButton: 'Talk to a person',
  order: [
    'Let me check that for you… 🔎',
    `Order \`NO-48213\` left our warehouse yesterday with **TrailPost** and should arrive on **Thursday**. You can follow it on the [tracking page](${TRACK}).`,
  ],
  hours: 'Our Boulder Basecamp store is open:\n\n- **Mon–Fri** 9:00–19:00\n- **Sat** 9:00–17:00\n- **Sun** _closed_ (we are out on the trail!)',
  returns: `Returns are free within **60 days**:\n\n1. Open [your orders](${ORDERS})\n2. Choose _Return an item_\n3. Drop the parcel at any TrailPost point\n\nRefunds reach your card within 5 working days.`,
  shipping: 'Shipping is **free over €75**, otherwise €4.90. Need it fast? _Express_ arrives the next working day for €9.90.',
  sizes: 'Our boots run true to size; if you are between sizes, go half a size up for long descents. Type `file` for the full size guide.',
  stock: 'Good news: it is **in stock** online and at Boulder Basecamp. Order before 15:00 and it ships today.',
  thanks: 'You are welcome! Happy trails 🥾',
  hello: (name) => [
    `Hi${named(name)}! 👋 I am **Juniper**, the Nimbus Outdoor assistant.`,
    'I can help with orders, returns, shipping and gear advice. Type `help` to see everything.',
  ],
  fallbacks: [
    'Thanks for your message! I am a demo assistant, so I know a few things well: **orders**, **returns**, **shipping** and **opening hours**. Type `help` to see everything I can do.',
    'Good question! I may not know that one yet. Try asking about an _order_, _returns_ or _shipping_, or type `buttons` for shortcuts.',
    'I am not sure I got that. You can ask me about our gear (try `carousel`), or type `human` to reach our team.',
  ],
  favourites: 'Here are a few favourites from the shop 👇',
  sizeGuide: 'Here is our size guide:',
  gpx: 'Want the route as a GPX file? Ask in store, we are happy to help.',
  product: (name, blurb) => `The **${name}** is one of our favourites: ${blurb}. Type \`card\` to see one up close.`,
  gear: 'We have packs, shells, boots and tents for every trail. Type `carousel` to browse the bestsellers.',
  escalation: 'Connecting you to a human. A member of our team will reply here.',
  escalationAway: 'Our team is away right now, so nobody can answer here yet. Leave your email address and they will write to you when they are back.',
  repair: 'Sorry to hear that! Gear that breaks in normal use is covered by our **2-year warranty**, and we repair tent poles, zips and seams at Boulder Basecamp. Send us a photo and your order number, or press Talk to a person.',
};

const de: AgentWords = {
  files: 'Danke, Ihre Dateien sind da. Einen Moment, ich sehe sie mir an.',
  handoffButton: 'Mit einem Menschen sprechen',
  order: [
    'Ich sehe gleich nach… 🔎',
    `Die Bestellung \`NO-48213\` hat gestern unser Lager mit **TrailPost** verlassen und sollte am **Donnerstag** ankommen. Sie können sie auf der [Sendungsverfolgung](${TRACK}) verfolgen.`,
  ],
  hours: 'Unser Laden Boulder Basecamp hat geöffnet:\n\n- **Mo–Fr** 9:00–19:00\n- **Sa** 9:00–17:00\n- **So** _geschlossen_ (da sind wir selbst unterwegs!)',
  returns: `Rücksendungen sind innerhalb von **60 Tagen** kostenlos:\n\n1. Öffnen Sie [Ihre Bestellungen](${ORDERS})\n2. Wählen Sie _Artikel zurücksenden_\n3. Geben Sie das Paket an einer TrailPost-Stelle ab\n\nDer Betrag ist innerhalb von 5 Werktagen wieder auf Ihrer Karte.`,
  shipping: 'Der Versand ist **ab 75 € kostenlos**, sonst kostet er 4,90 €. Eilig? _Express_ kommt am nächsten Werktag an, für 9,90 €.',
  sizes: 'Unsere Schuhe fallen normal aus; liegen Sie zwischen zwei Größen, nehmen Sie für lange Abstiege eine halbe Größe mehr. Schreiben Sie `file` für die ganze Größentabelle.',
  stock: 'Gute Nachricht: Der Artikel ist online und in Boulder Basecamp **auf Lager**. Bestellen Sie vor 15:00, dann geht er heute noch raus.',
  thanks: 'Gern geschehen! Schöne Touren 🥾',
  hello: (name) => [
    `Hallo${named(name)}! 👋 Ich bin **Juniper**, die Assistentin von Nimbus Outdoor.`,
    'Ich helfe bei Bestellungen, Rücksendungen, Versand und Ausrüstung. Schreiben Sie `help`, um alles zu sehen.',
  ],
  fallbacks: [
    'Danke für Ihre Nachricht! Ich bin eine Demo-Assistentin und kenne mich mit einigem gut aus: **Bestellungen**, **Rücksendungen**, **Versand** und **Öffnungszeiten**. Schreiben Sie `help`, um alles zu sehen.',
    'Gute Frage! Das weiß ich vielleicht noch nicht. Fragen Sie nach einer _Bestellung_, nach _Rücksendungen_ oder dem _Versand_, oder schreiben Sie `buttons` für Abkürzungen.',
    'Das habe ich nicht ganz verstanden. Fragen Sie mich nach unserer Ausrüstung (probieren Sie `carousel`), oder schreiben Sie `Mensch`, um unser Team zu erreichen.',
  ],
  favourites: 'Hier ein paar Lieblingsstücke aus dem Shop 👇',
  sizeGuide: 'Hier ist unsere Größentabelle:',
  gpx: 'Möchten Sie die Route als GPX-Datei? Fragen Sie im Laden, wir helfen gern.',
  product: (name, blurb) => `**${name}** gehört zu unseren Lieblingsstücken: ${blurb}. Schreiben Sie \`card\`, um eins aus der Nähe zu sehen.`,
  gear: 'Wir haben Rucksäcke, Jacken, Schuhe und Zelte für jeden Weg. Schreiben Sie `carousel`, um die Bestseller zu sehen.',
  escalation: 'Ich verbinde Sie mit einem Menschen. Jemand aus unserem Team antwortet hier.',
  escalationAway: 'Unser Team ist gerade nicht da, daher kann hier noch niemand antworten. Hinterlassen Sie Ihre E-Mail-Adresse, dann schreibt man Ihnen, sobald das Team zurück ist.',
  repair: 'Das tut uns leid! Was bei normalem Gebrauch kaputtgeht, deckt unsere **2-Jahres-Garantie**, und Zeltstangen, Reißverschlüsse und Nähte reparieren wir in Boulder Basecamp. Schicken Sie uns ein Foto und Ihre Bestellnummer, oder drücken Sie „Mit einem Menschen sprechen“.',
};

const fr: AgentWords = {
  files: 'Merci, j’ai bien vos fichiers. Un instant, je les regarde.',
  handoffButton: 'Parler à une personne',
  order: [
    'Je vérifie tout de suite… 🔎',
    `La commande \`NO-48213\` a quitté notre entrepôt hier avec **TrailPost** et devrait arriver **jeudi**. Vous pouvez la suivre sur la [page de suivi](${TRACK}).`,
  ],
  hours: 'Notre magasin Boulder Basecamp est ouvert :\n\n- **lun.–ven.** 9:00–19:00\n- **sam.** 9:00–17:00\n- **dim.** _fermé_ (nous sommes sur les sentiers !)',
  returns: `Les retours sont gratuits pendant **60 jours** :\n\n1. Ouvrez [vos commandes](${ORDERS})\n2. Choisissez _Retourner un article_\n3. Déposez le colis dans un point TrailPost\n\nLe remboursement arrive sur votre carte sous 5 jours ouvrés.`,
  shipping: 'La livraison est **gratuite dès 75 €**, sinon 4,90 €. Pressé ? L’_express_ arrive le jour ouvré suivant pour 9,90 €.',
  sizes: 'Nos chaussures taillent normalement ; entre deux pointures, prenez une demi-pointure de plus pour les longues descentes. Tapez `file` pour le guide des tailles complet.',
  stock: 'Bonne nouvelle : l’article est **en stock** en ligne et à Boulder Basecamp. Commandez avant 15:00 et il part aujourd’hui.',
  thanks: 'Avec plaisir ! Bonne randonnée 🥾',
  hello: (name) => [
    `Bonjour${named(name)} ! 👋 Je suis **Juniper**, l’assistante de Nimbus Outdoor.`,
    'Je peux vous aider pour les commandes, les retours, la livraison et l’équipement. Tapez `help` pour tout voir.',
  ],
  fallbacks: [
    'Merci pour votre message ! Je suis une assistante de démonstration, je connais bien quelques sujets : **commandes**, **retours**, **livraison** et **horaires**. Tapez `help` pour tout voir.',
    'Bonne question ! Je ne le sais peut-être pas encore. Demandez-moi une _commande_, les _retours_ ou la _livraison_, ou tapez `buttons` pour des raccourcis.',
    'Je ne suis pas sûre d’avoir compris. Demandez-moi notre équipement (essayez `carousel`), ou tapez `humain` pour joindre notre équipe.',
  ],
  favourites: 'Voici quelques coups de cœur de la boutique 👇',
  sizeGuide: 'Voici notre guide des tailles :',
  gpx: 'Vous voulez l’itinéraire en fichier GPX ? Demandez en magasin, nous vous aiderons volontiers.',
  product: (name, blurb) => `Le **${name}** fait partie de nos coups de cœur : ${blurb}. Tapez \`card\` pour en voir un de près.`,
  gear: 'Nous avons des sacs, des vestes, des chaussures et des tentes pour chaque sentier. Tapez `carousel` pour voir les meilleures ventes.',
  escalation: 'Je vous mets en relation avec une personne. Un membre de notre équipe vous répondra ici.',
  escalationAway: 'Notre équipe est absente pour le moment, personne ne peut donc répondre ici. Laissez votre adresse e-mail et elle vous écrira à son retour.',
  repair: 'Désolés ! Ce qui casse en usage normal est couvert par notre **garantie de 2 ans**, et nous réparons arceaux, fermetures éclair et coutures à Boulder Basecamp. Envoyez-nous une photo et votre numéro de commande, ou appuyez sur « Parler à une personne ».',
};

const ar: AgentWords = {
  files: 'شكرًا، وصلتني ملفاتك. لحظة من فضلك لأطّلع عليها.',
  handoffButton: 'التحدث إلى شخص',
  order: [
    'دعني أتحقق من ذلك… 🔎',
    `غادر الطلب \`NO-48213\` مستودعنا أمس مع **TrailPost** ومن المتوقع أن يصل يوم **الخميس**. يمكنك متابعته على [صفحة التتبع](${TRACK}).`,
  ],
  hours: 'متجرنا Boulder Basecamp مفتوح:\n\n- **الاثنين–الجمعة** 9:00–19:00\n- **السبت** 9:00–17:00\n- **الأحد** _مغلق_ (نكون على دروب المشي!)',
  returns: `الإرجاع مجاني خلال **60 يومًا**:\n\n1. افتح [طلباتك](${ORDERS})\n2. اختر _إرجاع منتج_\n3. سلّم الطرد في أي نقطة TrailPost\n\nيصل المبلغ المسترد إلى بطاقتك خلال 5 أيام عمل.`,
  shipping: 'الشحن **مجاني للطلبات فوق 75 €**، وإلا فتكلفته 4.90 €. تحتاجه بسرعة؟ يصل الشحن _السريع_ في يوم العمل التالي مقابل 9.90 €.',
  sizes: 'أحذيتنا مطابقة للمقاس المعتاد؛ إذا كنت بين مقاسين فاختر نصف مقاس أكبر للنزول الطويل. اكتب `file` لدليل المقاسات الكامل.',
  stock: 'خبر سار: المنتج **متوفر** عبر الإنترنت وفي Boulder Basecamp. اطلبه قبل 15:00 ويُشحن اليوم.',
  thanks: 'على الرحب والسعة! رحلات سعيدة 🥾',
  hello: (name) => [
    `مرحبًا${named(name)}! 👋 أنا **Juniper**، مساعدة Nimbus Outdoor.`,
    'يمكنني المساعدة في الطلبات والإرجاع والشحن واختيار المعدات. اكتب `help` لترى كل شيء.',
  ],
  fallbacks: [
    'شكرًا على رسالتك! أنا مساعدة تجريبية، وأعرف بعض الأمور جيدًا: **الطلبات** و**الإرجاع** و**الشحن** و**ساعات العمل**. اكتب `help` لترى كل ما أستطيع فعله.',
    'سؤال جيد! ربما لا أعرف الإجابة بعد. اسأل عن _طلب_ أو _الإرجاع_ أو _الشحن_، أو اكتب `buttons` للاختصارات.',
    'لست متأكدة أنني فهمت. اسألني عن معداتنا (جرّب `carousel`)، أو اكتب `موظف` للتواصل مع فريقنا.',
  ],
  favourites: 'إليك بعض المنتجات المفضلة من المتجر 👇',
  sizeGuide: 'إليك دليل المقاسات:',
  gpx: 'هل تريد المسار كملف GPX؟ اسأل في المتجر ويسعدنا مساعدتك.',
  product: (name, blurb) => `**${name}** من منتجاتنا المفضلة: ${blurb}. اكتب \`card\` لتراه عن قرب.`,
  gear: 'لدينا حقائب وسترات وأحذية وخيام لكل مسار. اكتب `carousel` لتتصفح الأكثر مبيعًا.',
  escalation: 'جارٍ تحويلك إلى شخص من فريقنا. سيرد عليك أحد الزملاء هنا.',
  escalationAway: 'فريقنا غير متواجد الآن، لذا لا يمكن لأحد الرد هنا بعد. اترك بريدك الإلكتروني وسيكتبون إليك عند عودتهم.',
  repair: 'نأسف لذلك! ما ينكسر في الاستخدام العادي يشمله **ضمان لمدة سنتين**، ونصلح أعمدة الخيام والسحابات والخياطة في Boulder Basecamp. أرسل لنا صورة ورقم طلبك، أو اضغط «التحدث إلى شخص».',
};

const he: AgentWords = {
  files: 'תודה, הקבצים שלך אצלי. רגע, אני מעיינת בהם.',
  handoffButton: 'שיחה עם נציג',
  order: [
    'רגע, אני בודקת… 🔎',
    `ההזמנה \`NO-48213\` יצאה אתמול מהמחסן שלנו עם **TrailPost** ואמורה להגיע ביום **חמישי**. אפשר לעקוב אחריה ב[דף המעקב](${TRACK}).`,
  ],
  hours: 'החנות שלנו Boulder Basecamp פתוחה:\n\n- **שני–שישי** 9:00–19:00\n- **שבת** 9:00–17:00\n- **ראשון** _סגור_ (אנחנו בשבילים!)',
  returns: `החזרות בחינם תוך **60 יום**:\n\n1. פתחו את [ההזמנות שלכם](${ORDERS})\n2. בחרו _החזרת פריט_\n3. מסרו את החבילה בנקודת TrailPost\n\nההחזר הכספי יגיע לכרטיס תוך 5 ימי עסקים.`,
  shipping: 'המשלוח **חינם מעל 75 €**, אחרת 4.90 €. צריכים מהר? משלוח _אקספרס_ מגיע ביום העסקים הבא ב־9.90 €.',
  sizes: 'הנעליים שלנו תואמות למידה הרגילה; אם אתם בין שתי מידות, קחו חצי מידה יותר לירידות ארוכות. כתבו `file` למדריך המידות המלא.',
  stock: 'חדשות טובות: הפריט **במלאי** באתר וב־Boulder Basecamp. הזמינו לפני 15:00 והוא יישלח היום.',
  thanks: 'בשמחה! טיולים נעימים 🥾',
  hello: (name) => [
    `שלום${named(name)}! 👋 אני **Juniper**, העוזרת של Nimbus Outdoor.`,
    'אפשר לשאול אותי על הזמנות, החזרות, משלוחים וציוד. כתבו `help` כדי לראות הכול.',
  ],
  fallbacks: [
    'תודה על ההודעה! אני עוזרת הדגמה, ואני מכירה היטב כמה נושאים: **הזמנות**, **החזרות**, **משלוחים** ו**שעות פתיחה**. כתבו `help` כדי לראות הכול.',
    'שאלה טובה! ייתכן שאני עוד לא יודעת. נסו לשאול על _הזמנה_, _החזרות_ או _משלוח_, או כתבו `buttons` לקיצורי דרך.',
    'לא בטוח שהבנתי. אפשר לשאול אותי על הציוד שלנו (נסו `carousel`), או לכתוב `נציג` כדי להגיע לצוות.',
  ],
  favourites: 'הנה כמה מהמועדפים של החנות 👇',
  sizeGuide: 'הנה מדריך המידות שלנו:',
  gpx: 'רוצים את המסלול כקובץ GPX? שאלו בחנות, נשמח לעזור.',
  product: (name, blurb) => `**${name}** הוא מהמועדפים שלנו: ${blurb}. כתבו \`card\` כדי לראות אותו מקרוב.`,
  gear: 'יש לנו תרמילים, מעילים, נעליים ואוהלים לכל שביל. כתבו `carousel` כדי לראות את רבי המכר.',
  escalation: 'מעבירים אותך לנציג. מישהו מהצוות שלנו יענה כאן.',
  escalationAway: 'הצוות שלנו לא זמין כרגע, כך שאף אחד לא יכול לענות כאן עדיין. השאירו כתובת אימייל ונכתוב לכם כשנחזור.',
  repair: 'מצטערים לשמוע! מה שנשבר בשימוש רגיל מכוסה ב**אחריות לשנתיים**, ואנחנו מתקנים מוטות אוהל, רוכסנים ותפרים ב־Boulder Basecamp. שלחו לנו תמונה ואת מספר ההזמנה, או לחצו על "שיחה עם נציג".',
};

const WORDS: Record<string, AgentWords> = { en, de, fr, ar, he };

/** The words in the language of `locale` (a tag like `de-AT`), else English. */
export function agentWords(locale: unknown): AgentWords {
  const lang = typeof locale === 'string' ? locale.slice(0, 2).toLowerCase() : 'en';
  return WORDS[lang] ?? en;
}

/** Every language's hand-off button title: pressing one, or typing it, hands over. */
export const HANDOFF_REQUESTS = Object.values(WORDS).map((w) => w.handoffButton.toLowerCase());
