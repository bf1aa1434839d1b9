// The email's words in each language the widget speaks (widget/src/locales); English otherwise.

/** Every string of an email to a visitor. `{title}`, `{n}` and `{site}` are filled in. */
export interface EmailStrings {
  subject: string;
  intro: string;
  operator: string;
  continue: string;
  why: string;
  unsubscribe: string;
  /** The unsubscribe page (GET /api/email/unsubscribe). */
  unsubscribeQuestion: string;
  unsubscribeButton: string;
  unsubscribed: string;
  linkInvalid: string;
}

const en: EmailStrings = {
  subject: '{title}: a new reply to your conversation',
  intro: 'While you were away, you got {n} new messages:',
  operator: 'Our team',
  continue: 'Continue the conversation',
  why: 'You get this email because you left your address in the chat on {site}.',
  unsubscribe: 'Unsubscribe from emails about this conversation',
  unsubscribeQuestion: 'Stop emails about this conversation to this address?',
  unsubscribeButton: 'Unsubscribe',
  unsubscribed: 'Done: no more emails about this conversation will reach this address.',
  linkInvalid: 'This link is not valid or has expired.',
};

const de: EmailStrings = {
  subject: '{title}: eine neue Antwort in Ihrem Gespräch',
  intro: 'Während Sie weg waren, kamen {n} neue Nachrichten:',
  operator: 'Unser Team',
  continue: 'Gespräch fortsetzen',
  why: 'Sie erhalten diese E-Mail, weil Sie Ihre Adresse im Chat auf {site} hinterlassen haben.',
  unsubscribe: 'Keine E-Mails mehr zu diesem Gespräch',
  unsubscribeQuestion: 'Keine E-Mails mehr zu diesem Gespräch an diese Adresse senden?',
  unsubscribeButton: 'Abmelden',
  unsubscribed: 'Erledigt: Zu diesem Gespräch kommen keine E-Mails mehr an diese Adresse.',
  linkInvalid: 'Dieser Link ist ungültig oder abgelaufen.',
};

const fr: EmailStrings = {
  subject: '{title} : une nouvelle réponse à votre conversation',
  intro: 'Pendant votre absence, vous avez reçu {n} nouveaux messages :',
  operator: 'Notre équipe',
  continue: 'Reprendre la conversation',
  why: 'Vous recevez cet e-mail car vous avez laissé votre adresse dans le chat sur {site}.',
  unsubscribe: 'Ne plus recevoir d’e-mails sur cette conversation',
  unsubscribeQuestion: 'Ne plus envoyer d’e-mails sur cette conversation à cette adresse ?',
  unsubscribeButton: 'Se désabonner',
  unsubscribed: 'C’est fait : plus aucun e-mail sur cette conversation ne sera envoyé à cette adresse.',
  linkInvalid: 'Ce lien n’est pas valide ou a expiré.',
};

const ar: EmailStrings = {
  subject: '{title}: رد جديد في محادثتك',
  intro: 'وصلتك أثناء غيابك رسائل جديدة ({n}):',
  operator: 'فريقنا',
  continue: 'متابعة المحادثة',
  why: 'تصلك هذه الرسالة لأنك تركت عنوانك في المحادثة على {site}.',
  unsubscribe: 'إلغاء الاشتراك في رسائل هذه المحادثة',
  unsubscribeQuestion: 'إيقاف رسائل هذه المحادثة إلى هذا العنوان؟',
  unsubscribeButton: 'إلغاء الاشتراك',
  unsubscribed: 'تم: لن تصل رسائل أخرى عن هذه المحادثة إلى هذا العنوان.',
  linkInvalid: 'هذا الرابط غير صالح أو انتهت صلاحيته.',
};

const he: EmailStrings = {
  subject: '{title}: תשובה חדשה בשיחה שלך',
  intro: 'בזמן שלא היית כאן הגיעו הודעות חדשות ({n}):',
  operator: 'הצוות שלנו',
  continue: 'להמשך השיחה',
  why: 'קיבלת הודעה זו כי השארת את הכתובת שלך בצ׳אט באתר {site}.',
  unsubscribe: 'הסרה מהודעות על שיחה זו',
  unsubscribeQuestion: 'להפסיק לשלוח לכתובת זו הודעות על שיחה זו?',
  unsubscribeButton: 'הסרה',
  unsubscribed: 'בוצע: לא יישלחו עוד הודעות על שיחה זו לכתובת זו.',
  linkInvalid: 'הקישור אינו תקין או שפג תוקפו.',
};

const BY_LANGUAGE: Readonly<Record<string, EmailStrings>> = { en, de, fr, ar, he };
const RIGHT_TO_LEFT = new Set(['ar', 'he']);

/** The email's language from the visitor's (`de-AT` → `de`), English when the widget has no strings for it. */
export function emailLanguage(locale: string | undefined): string {
  const language = locale?.slice(0, 2).toLowerCase() ?? 'en';
  return language in BY_LANGUAGE ? language : 'en';
}

export function stringsOf(language: string): EmailStrings {
  return BY_LANGUAGE[language] ?? en;
}

export function directionOf(language: string): 'rtl' | 'ltr' {
  return RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}

/** Fills `{name}` placeholders. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
