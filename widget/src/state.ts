/** Shapes the widget's slices share. Each slice's signals live with the module that writes them (store.ts composes them). */
export { botDone, type Convo } from './apply-event.js';

/** A message on its way: text, or files with a text (`sent`: that text already arrived, only the files are left). */
export interface Outgoing {
  clientId: string;
  /** The browser's secret for a conversation this item starts, the same on every try (`startKey`, docs/api.md). */
  key?: string;
  text: string;
  files?: File[];
  sent?: boolean;
}

/** A file chosen for the next message, shown as a chip above the composer until it has gone. */
export interface Chosen {
  id: string;
  file: File;
  /** Percentage sent while it uploads; undefined before the send and after a refusal. */
  progress?: number;
  /** The last try was refused: it stays for Retry or removal. */
  failed?: boolean;
}

/**
 * Why files were not taken (`too_many`, `too_big`, `file_type_not_accepted`, with the refused
 * `names`) or not sent (the BFF's code); `item`: files whose message already arrived, retried without it.
 */
export interface UploadProblem {
  code: string;
  item?: Outgoing;
  names?: string[];
}
