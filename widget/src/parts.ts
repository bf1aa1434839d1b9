/**
 * The chat's parts that few visitors need, fetched only when one is about to show (lazy.tsx): the
 * pre-chat form, the away form, chosen files' chips, a signed-in visitor's welcome and list of conversations,
 * the rating at the end, the image lightbox, the transcript file, the sending of files and the
 * badge kinds few conversations meet (badges/rare.tsx), with their CSS and English strings.
 */
import { RARE_BADGE_CSS } from './badges/rare.js';
import { PARTS_CSS as OWN_CSS } from './parts-styles.js';

export { Attachments } from './components/Attachments.js';
export { Chips } from './components/Chips.js';
export { ContactForm } from './components/ContactForm.js';
export { ConversationList, PastConversation, WelcomeBack } from './components/Conversations.js';
export { Csat } from './components/Csat.js';
export { ZoomDialog } from './components/ZoomDialog.js';
export { Prechat } from './components/Prechat.js';
export { RARE_BADGES, RareBadge } from './badges/rare.js';
export { saveConversation } from './conversation-file.js';
export { sendRating } from './rating.js';
export { postFiles } from './upload-post.js';

/** The parts' CSS: their components', then the rare badge kinds'. */
export const PARTS_CSS = OWN_CSS + RARE_BADGE_CSS;
