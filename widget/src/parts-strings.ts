/**
 * The English strings of the parts chunk (parts.ts): the pre-chat and away forms, the rating, a
 * signed-in visitor's conversations, files chosen and sent (and why some were not) and the lightbox. They come with the parts that
 * show them; the chat's own strings are in i18n.ts, and every language's file has both.
 */
export const PART_STRINGS = {
  closeImage: 'Close image',
  uploading: 'Uploading {name}',
  removeFile: 'Remove {name}',
  fileFailed: 'Not sent',
  yourConversations: 'Your conversations',
  newConversation: 'New conversation',
  noConversations: 'No conversations yet.',
  stateOpen: 'Open',
  stateTeam: 'With our team',
  stateEnded: 'Ended',
  /** A listed conversation's last message: who wrote it (a name, or `you`), then its words. */
  lastSaid: '{name}: {text}',
  /** Above a signed-in visitor's conversation when they come back to it; `welcomeBackUnnamed` when the site gave no name. */
  welcomeBack: 'Welcome back, {name}!',
  welcomeBackUnnamed: 'Welcome back!',
  readOnly: 'Past conversation, read-only.',
  back: 'Back to conversations',
  csatQuestion: 'How did we do?',
  /** The five answers, worst to best, separated by `|`. */
  csatScale: 'Very poor|Poor|Okay|Good|Excellent',
  csatComment: 'Anything you would like to add? (optional)',
  csatSend: 'Send rating',
  csatThanks: 'Thank you for your rating!',
  csatFailed: 'Your rating was not sent. Please try again.',
  prechatAsk: 'Before we start, tell us how to reach you.',
  prechatName: 'Your name',
  prechatEmail: 'Email address',
  prechatStart: 'Start chatting',
  prechatSkip: 'Skip',
  prechatAllRequired: 'All fields are required.',
  prechatNameMissing: 'Please enter your name.',
  contactAsk: 'Leave your email and we will get back to you:',
  contactEmail: 'you@example.com',
  contactSend: 'Notify me',
  contactThanks: "Thanks! We'll reply to {email}.",
  contactInvalid: 'Please enter a valid email address.',
  contactConsent: 'Please tick the box to agree first.',
  contactFailed: 'Your address was not sent. Please try again.',
  /** Chosen and sent files, and why some were not taken or sent. */
  files: 'Files to send',
  attachments: 'Attached files',
  tooMany: 'At most {n} files at a time.',
  tooBig: 'Files can be at most {n} MB each.',
  tooLarge: 'These files are too large to send.',
  uploadOff: "Files can't be sent here.",
  notUploaded: 'Your files were not sent.',
  notAdded: 'Not added: {names}',
  notAddedType: 'Not added: {names} (this type is not accepted)',
  /** Two switches of the header's menu. */
  expand: 'Full height',
  sound: 'Sound',
  /** The comment after a thumbs down. */
  comment: 'What was missing?',
  commentThanks: 'Thanks, that helps us improve.',
  /** An ended conversation's actions (the transcript also in the header's menu). */
  restart: 'Start a new conversation',
  transcript: 'Download transcript',
  /** Why the assistant cannot answer. */
  unavailable: "The assistant can't answer right now. Please try again later.",
  region: "The assistant can't answer: its AI model isn't available in the region this chat runs in.",
  budget: "The assistant has reached its usage limit and can't answer for now.",
};

export type PartStrings = typeof PART_STRINGS;

/** The strings for a part: English under the language's table and the page's overrides (`strings`, the chat's). */
export const partStrings = <T extends Partial<PartStrings>>(strings: T): PartStrings & T => ({ ...PART_STRINGS, ...strings });
