/**
 * The widget's strings in English, German and French. Every string can be overridden through
 * `options.strings`; `{n}` and `{i}` are placeholders filled in by `fill` (`{n}` of `tooBig` is
 * in megabytes: the unit's name differs by language).
 */

const en = {
  open: 'Open chat',
  close: 'Close chat',
  title: 'Chat',
  greeting: 'Hi! How can we help you today?',
  message: 'Message',
  placeholder: 'Type a message…',
  send: 'Send',
  typing: 'Typing…',
  unread: '{n} unread',
  older: 'Load older messages',
  notSent: 'Your message was not sent.',
  retry: 'Retry',
  queued: 'Waiting for connection…',
  offline: "You're offline. Messages will be sent when you're back.",
  unavailable: "The assistant can't answer right now. Please try again later.",
  human: 'Talk to a person',
  escalated: 'A person from our team will take it from here.',
  ended: 'This conversation has ended.',
  restart: 'Start a new conversation',
  prev: 'Previous',
  next: 'Next',
  slide: '{i} of {n}',
  carousel: 'carousel',
  slideRole: 'slide',
  you: 'You',
  bot: 'Assistant',
  operator: 'Team member',
  log: 'Conversation',
  newTab: '(opens in a new tab)',
  region: "The assistant can't answer: its AI model isn't available in the region this chat runs in.",
  budget: "The assistant has reached its usage limit and can't answer for now.",
  attach: 'Attach files',
  uploading: 'Uploading',
  tooMany: 'At most {n} files at a time.',
  tooBig: 'Files can be at most {n} MB each.',
  tooLarge: 'These files are too large to send.',
  uploadOff: "Files can't be sent here.",
  notUploaded: 'Your files were not sent.',
};

/** Every string the widget shows. */
export type Strings = typeof en;

const de: Strings = {
  open: 'Chat öffnen',
  close: 'Chat schließen',
  title: 'Chat',
  greeting: 'Hallo! Wie können wir helfen?',
  message: 'Nachricht',
  placeholder: 'Nachricht schreiben…',
  send: 'Senden',
  typing: 'Schreibt…',
  unread: '{n} ungelesen',
  older: 'Ältere Nachrichten laden',
  notSent: 'Ihre Nachricht wurde nicht gesendet.',
  retry: 'Erneut senden',
  queued: 'Warte auf Verbindung…',
  offline: 'Sie sind offline. Nachrichten werden gesendet, sobald Sie wieder online sind.',
  unavailable: 'Der Assistent kann gerade nicht antworten. Bitte versuchen Sie es später erneut.',
  human: 'Mit einem Menschen sprechen',
  escalated: 'Ein Mitglied unseres Teams übernimmt jetzt.',
  ended: 'Dieses Gespräch wurde beendet.',
  restart: 'Neues Gespräch beginnen',
  prev: 'Zurück',
  next: 'Weiter',
  slide: '{i} von {n}',
  carousel: 'Karussell',
  slideRole: 'Folie',
  you: 'Sie',
  bot: 'Assistent',
  operator: 'Teammitglied',
  log: 'Gespräch',
  newTab: '(öffnet in neuem Tab)',
  region: 'Der Assistent kann nicht antworten: Sein KI-Modell ist in der Region dieses Chats nicht verfügbar.',
  budget: 'Der Assistent hat sein Nutzungslimit erreicht und kann vorerst nicht antworten.',
  attach: 'Dateien anhängen',
  uploading: 'Wird hochgeladen',
  tooMany: 'Höchstens {n} Dateien auf einmal.',
  tooBig: 'Jede Datei darf höchstens {n} MB groß sein.',
  tooLarge: 'Diese Dateien sind zu groß zum Senden.',
  uploadOff: 'Dateien können hier nicht gesendet werden.',
  notUploaded: 'Ihre Dateien wurden nicht gesendet.',
};

const fr: Strings = {
  open: 'Ouvrir le chat',
  close: 'Fermer le chat',
  title: 'Chat',
  greeting: 'Bonjour ! Comment pouvons-nous vous aider ?',
  message: 'Message',
  placeholder: 'Écrivez un message…',
  send: 'Envoyer',
  typing: 'En train d’écrire…',
  unread: '{n} non lu(s)',
  older: 'Charger les messages précédents',
  notSent: 'Votre message n’a pas été envoyé.',
  retry: 'Réessayer',
  queued: 'En attente de connexion…',
  offline: 'Vous êtes hors ligne. Les messages partiront dès votre retour.',
  unavailable: 'L’assistant ne peut pas répondre pour le moment. Réessayez plus tard.',
  human: 'Parler à une personne',
  escalated: 'Un membre de notre équipe prend le relais.',
  ended: 'Cette conversation est terminée.',
  restart: 'Nouvelle conversation',
  prev: 'Précédent',
  next: 'Suivant',
  slide: '{i} sur {n}',
  carousel: 'carrousel',
  slideRole: 'diapositive',
  you: 'Vous',
  bot: 'Assistant',
  operator: 'Membre de l’équipe',
  log: 'Conversation',
  newTab: '(s’ouvre dans un nouvel onglet)',
  region: 'L’assistant ne peut pas répondre : son modèle d’IA n’est pas disponible dans la région de ce chat.',
  budget: 'L’assistant a atteint sa limite d’utilisation et ne peut pas répondre pour le moment.',
  attach: 'Joindre des fichiers',
  uploading: 'Envoi en cours',
  tooMany: '{n} fichiers au maximum à la fois.',
  tooBig: 'Chaque fichier doit faire au maximum {n} Mo.',
  tooLarge: 'Ces fichiers sont trop volumineux pour être envoyés.',
  uploadOff: 'L’envoi de fichiers n’est pas possible ici.',
  notUploaded: 'Vos fichiers n’ont pas été envoyés.',
};

const LOCALES: Record<string, Strings> = { en, de, fr };
const RTL = /^(ar|he|fa|ur|yi|ps|dv|ku|sd|ug)\b/i;

/** Picks the strings for `locale` (or the browser's language), with overrides applied. */
export function pickStrings(locale: string | undefined, overrides?: Partial<Strings>): Strings {
  const lang = (locale || navigator.language || 'en').slice(0, 2).toLowerCase();
  return { ...(LOCALES[lang] || en), ...overrides };
}

/** Text direction: `dir` when given, else right-to-left for RTL locales. */
export function pickDir(locale: string | undefined, dir?: 'ltr' | 'rtl'): 'ltr' | 'rtl' {
  return dir || (RTL.test(locale || navigator.language || '') ? 'rtl' : 'ltr');
}

/** Fills `{name}` placeholders. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
