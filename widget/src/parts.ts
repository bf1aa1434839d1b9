/**
 * The chat's parts that few visitors need, fetched only when one is about to show (lazy.ts): the
 * pre-chat form, the rating at the end, the image lightbox and the transcript file.
 */
export { Csat } from './components/Csat.js';
export { ZoomDialog } from './components/ZoomDialog.js';
export { Prechat } from './components/Prechat.js';
export { saveTranscript, transcriptName, transcriptText } from './transcript.js';
