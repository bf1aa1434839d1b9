/**
 * File uploads, in the parts chunk (few visitors send files): chosen files wait as chips (`chosen`,
 * checked against the limits as they come) until the visitor sends; then they go with the
 * composer's text as one message to `POST /api/upload`, each chip showing its share of the upload's
 * progress. Uploads go through the store's outbox, so they keep their place among the messages.
 */
import type { ReadonlySignal, Signal } from '@preact/signals';
import { safeFileName } from '../../shared/file-name.js';
import type { PublicConfig } from '../../shared/types.js';
import { ApiError } from './api.js';
import type { Conversation } from './apply-event.js';
import type { Auth } from './auth.js';
import { newId } from './messages.js';
import type { Chosen, Outgoing, UploadProblem } from './state.js';
import { postFiles } from './upload-post.js';

/**
 * The uploads slice's signals. The outbox makes them, so the panel can read them before this chunk
 * has come, and hands them to `createUploads` alone: this module is the only one that writes them.
 */
export interface UploadSignals {
  chosen: Signal<Chosen[]>;
  problem: Signal<UploadProblem | undefined>;
  /** The files each sent message carried, by its clientId: its bubble shows them (thumbnails) for the page's life. */
  sent: Signal<ReadonlyMap<string, File[]>>;
}

/** What the uploads need of the store's outbox. */
export interface UploadOutbox {
  /** Starts the conversation with the item's text. */
  start(item: Outgoing): Promise<void>;
  /** Shows the item as the user's message and queues it. */
  queue(item: Outgoing): void;
  /** Queues the item again without showing it twice. */
  resend(item: Outgoing): void;
  /** Takes the composer's text (trimmed), leaving it empty. */
  take(): string;
  /** Puts a refused text back into the composer. */
  giveBack(text: string): void;
}

/**
 * The uploads of one store: it writes the chips (`chosen`), the last problem (`problem`) and the sent
 * files (`sent`); `attach`, `remove`, `send` and `retry` for the UI, `upload` and `refused` for the outbox.
 */
export function createUploads(
  { chosen, problem, sent }: UploadSignals,
  bff: string,
  auth: Auth,
  conversation: ReadonlySignal<Conversation>,
  config: ReadonlySignal<PublicConfig | undefined>,
  out: UploadOutbox,
) {
  /** Changes the chips of `files` (by `File` identity: a chip is its file). */
  const chips = (files: File[], change: Partial<Chosen> | null) =>
    (chosen.value = chosen.value.flatMap((c) => (!files.includes(c.file) ? [c] : change ? [{ ...c, ...change }] : [])));

  /** Sends an item's files, after starting the conversation with its text if there is none. */
  async function upload(item: Outgoing) {
    const files = item.files!;
    if (!auth.session) {
      await out.start(item);
      item.sent = true;
    }
    chips(files, { progress: 0, failed: false });
    try {
      // One request for all files, which go in order: each chip shows the part of its own bytes sent.
      const starts = files.map((_, i) => files.slice(0, i).reduce((n, f) => n + f.size, 0));
      const progress = (loaded: number) => {
        chosen.value = chosen.value.map((c) => {
          const i = files.indexOf(c.file);
          const part = (loaded - starts[i]!) / (c.file.size || 1);
          return i < 0 ? c : { ...c, progress: Math.round(100 * Math.min(1, Math.max(0, part))) };
        });
      };
      await auth.withToken((token) => postFiles(bff, token, item, progress));
      chips(files, null);
    } catch (e) {
      // The service may have them: gone from the chips, the message says "may have been sent".
      if (e instanceof ApiError && e.code === 'send_uncertain') chips(files, null);
      throw e;
    }
  }

  /** Adds `files` as chips; those of a type not taken or over the limits are refused here, by name. */
  function attach(picked: File[]) {
    const lim = config.value?.limits;
    const types = lim?.uploadTypes;
    const refusedType = picked.filter((f) => types && !acceptedType(f, types));
    if (refusedType.length) problem.value = { code: 'file_type_not_accepted', names: refusedType.map((f) => f.name) };
    const files = picked.filter((f) => !refusedType.includes(f)).map(sendable);
    const fit = files.filter((f) => !lim || f.size <= lim.maxUploadBytes);
    const room = lim ? Math.max(0, lim.maxUploadFiles - chosen.value.length) : fit.length;
    const left = files.filter((f) => !fit.includes(f)).concat(fit.slice(room));
    // A refused send's message (with its Retry) stands until dealt with; an earlier limits message goes.
    if (left.length) problem.value = { code: fit.length > room ? 'too_many' : 'too_big', names: left.map((f) => f.name) };
    else if (problem.value?.names && !refusedType.length) problem.value = undefined;
    chosen.value = [...chosen.value, ...fit.slice(0, room).map((file) => ({ id: newId(), file }))];
  }

  /** Sends the composer's text with the chips not already on their way; false when there are none. */
  function send(): boolean {
    const files = chosen.value.filter((c) => c.progress === undefined).map((c) => c.file);
    if (!files.length) return false;
    // The message names the files after the composer's text (4000 characters at most, as the BFF wants).
    const draft = out.take();
    const names = '📎 ' + files.map((f) => f.name).join(', ');
    problem.value = undefined;
    chips(files, { progress: 0, failed: false });
    const clientId = newId();
    sent.value = new Map(sent.value).set(clientId, files);
    out.queue({ clientId, text: (draft ? draft + '\n' + names : names).slice(0, 4000), files });
    return true;
  }

  /**
   * Refused files: their chips say so and stay for Retry. A message that never arrived leaves the
   * thread, and its text goes back into the composer, so nothing typed is lost.
   */
  function refused(item: Outgoing, code: string) {
    const arrived = item.sent || conversation.value.messages.some((m) => m.clientId === item.clientId);
    chips(item.files!, { progress: undefined, failed: true });
    problem.value = { code, item: arrived ? item : undefined };
    const typed = item.text.replace(/\n?📎 [^\n]*$/, '');
    if (!arrived && typed) out.giveBack(typed);
  }

  /** Retry: the refused files alone when their message is on screen, else the composer's text with the chips. */
  function retry() {
    const item = problem.value?.item;
    problem.value = undefined;
    if (!item) return void send();
    item.files = chosen.value.filter((c) => c.failed).map((c) => c.file);
    if (!item.files.length) return;
    item.sent = true;
    chips(item.files, { progress: 0, failed: false });
    out.resend(item);
  }

  /** Takes a chip away (the × on it). */
  function remove(id: string) {
    chosen.value = chosen.value.filter((c) => c.id !== id);
  }

  return {
    upload,
    attach,
    send,
    refused,
    retry,
    remove,
    /** Hides the message about the last files (the × beside it). */
    dismiss: () => void (problem.value = undefined),
    /** A new message: a refusal of earlier files is stale now; one that can be retried stays until Retry or dismiss. */
    stale: () => void (problem.value?.item || (problem.value = undefined)),
    /** Forgets the chips (a reset). */
    drop: () => void (chosen.value = []),
  };
}

/**
 * Whether the file's extension and declared type are on `UPLOAD_TYPES` (`types`), as the BFF checks
 * them before its bytes: a file refused here never waits as a chip only to be refused on send.
 */
function acceptedType(file: File, types: readonly string[]): boolean {
  const extension = /\.[^.]+$/.exec(file.name)?.[0]?.toLowerCase();
  const type = file.type.split(';')[0]!.trim().toLowerCase();
  const typeOk = type === '' || type === 'application/octet-stream' || types.some((t) => t === type || (t.endsWith('/*') && type.startsWith(t.slice(0, -1))));
  return extension !== undefined && types.includes(extension) && typeOk;
}

/** The file under a name the BFF takes (shared/file-name.ts): what it refuses is left out, a name too long is cut. */
function sendable(file: File): File {
  const name = safeFileName(file.name);
  return name === file.name ? file : new File([file], name, { type: file.type, lastModified: file.lastModified });
}

/** One store's uploads, once the parts chunk has come. */
export type Uploads = ReturnType<typeof createUploads>;
