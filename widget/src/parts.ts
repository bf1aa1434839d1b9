/**
 * The chat's parts that few visitors need, fetched only when one is about to show (lazy.tsx): the
 * pre-chat form, the away form, chosen files' chips, a signed-in visitor's list of conversations,
 * the rating at the end, the image lightbox, the transcript file and the sending of files, with their CSS.
 */
export { Chips } from './components/Chips.js';
export { ContactForm } from './components/ContactForm.js';
export { ConversationList, PastConversation } from './components/Conversations.js';
export { Csat } from './components/Csat.js';
export { ZoomDialog } from './components/ZoomDialog.js';
export { Prechat } from './components/Prechat.js';
export { PARTS_CSS } from './parts-styles.js';
export { saveConversation } from './conversation-file.js';
export { sendRating } from './rating.js';
export { postFiles } from './upload-post.js';
