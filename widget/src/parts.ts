/**
 * The chat's parts that few visitors need, fetched only when one is about to show (ui/Part.tsx): the
 * pre-chat form, the away form, chosen files' chips, a signed-in visitor's welcome back and list of conversations,
 * the rating and what else an ended conversation offers, the image lightbox, the transcript file, chosen and sent files (upload.ts) and the
 * badge kinds few conversations meet (badges/rare.tsx), with their CSS and English strings.
 */
import { RARE_BADGE_CSS } from './badges/rare.js';
import { PARTS_CSS as OWN_CSS } from './parts-styles.js';

export { Attachments } from './components/Attachments.js';
export { Chips } from './components/Chips.js';
export { ContactForm } from './components/ContactForm.js';
export { ConversationList, PastConversation, WelcomeBack } from './components/Conversations.js';
export { ZoomDialog } from './components/ZoomDialog.js';
export { EndActions } from './components/EndActions.js';
export { FeedbackComment } from './components/FeedbackComment.js';
export { Menu } from './components/Menu.js';
export { Notice } from './components/Notice.js';
export { Prechat } from './components/Prechat.js';
export { Proactive } from './components/Proactive.js';
export { UploadNote } from './components/UploadNote.js';
export { RARE_BADGES, RareBadge } from './badges/rare.js';
export { saveConversation } from './conversation-file.js';
export { createConversationsView } from './conversations-view.js';
export { sendRating } from './rating.js';
export { createUploads } from './upload.js';

// The chunk's exports, as parts-loader.ts knows them.
type Self = typeof import('./parts.js');
declare module './parts-loader.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface, @typescript-eslint/no-empty-object-type
  interface Parts extends Self {}
}

/** The parts' CSS: their components', then the rare badge kinds'. */
export const PARTS_CSS = OWN_CSS + RARE_BADGE_CSS;
