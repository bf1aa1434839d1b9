/**
 * The outbox: what the visitor sends, in order. A message shows at once as the user's own, waits
 * out network failures (kept per tab across a reload; files only for the page's life), and on a
 * refusal comes back into the text box (files stay with the error for Retry). A send that may have
 * reached the service (`send_uncertain`) is never offered again, so nothing is sent twice.
 */
import { batch, effect, signal, type ReadonlySignal } from '@preact/signals';
import type { PublicConfig } from '../../shared/types.js';
import { ApiError, type ApiError as ApiErrorType } from './api.js';
import { isFatal, type Auth } from './auth.js';
import type { ConversationSlice } from './conversation.js';
import { newId, type ChatMessage } from './messages.js';
import { loadParts } from './parts-loader.js';
import type { Chosen, Outgoing, UploadProblem } from './state.js';
import { keep, kept } from './storage.js';
import type { UploadOutbox, Uploads, UploadSignals } from './upload.js';

/** What the outbox needs of the rest of the store. */
export interface OutboxDeps {
  bff: string;
  auth: Auth;
  conversation: ConversationSlice;
  /** The browser is online. */
  online: ReadonlySignal<boolean>;
  config: ReadonlySignal<PublicConfig | undefined>;
  /** Starts a conversation with the item's text (no session yet, or "New conversation"). */
  start(item: Outgoing): Promise<void>;
  /** True while the next text must start a conversation although a session exists. */
  startsNew(): boolean;
  /** An archived conversation is left for a new one before a message goes. */
  restart(): void;
  report(e: unknown): void;
}

/**
 * Creates the outbox of one store, which owns the composer's text (`draft`), the refusal of the
 * last message (`failed`) and the queue; `key` is where the queue is kept for this tab.
 */
export function createOutbox(key: string, d: OutboxDeps) {
  const { auth, conversation } = d;
  const { mark } = conversation;
  /** What waits to be sent, in order. */
  const queued = signal<Outgoing[]>([]);
  const draft = signal('');
  const failed = signal(false);
  let pumping = false;
  let destroyed = false;
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let unkeep = () => {};
  const shift = () => (queued.value = queued.value.slice(1));
  conversation.onClear(() => (failed.value = false));

  /** Puts a refused text back in front of what the composer holds. */
  const giveBack = (text: string) => (draft.value = draft.value ? text + '\n' + draft.value : text);

  /** A refused item: its text back in the box (its files stay as chips for Retry), and the reason reported. */
  function refused(item: Outgoing, e: ApiErrorType) {
    if (e.code === 'conversation_archived') conversation.ended();
    // Uploads being off is not the conversation's end.
    else if (isFatal(e) && e.code !== 'feature_disabled') conversation.lost();
    batch(() => {
      // A text that already arrived stays on screen.
      if (item.sent) mark(undefined, [item.clientId]);
      else conversation.dropLocal(item.clientId);
      if (item.files) uploads!.refused(item, e.code);
      else {
        giveBack(item.text);
        failed.value = true;
      }
    });
  }

  /** Sends the queue in order; network failures keep it for later, refusals give the text back. */
  async function pump() {
    if (pumping || destroyed) return;
    pumping = true;
    clearTimeout(retryTimer);
    try {
      while (queued.value.length && !destroyed) {
        const item = queued.value[0]!;
        if (!d.online.value) return mark('queued', queued.value.map((o) => o.clientId));
        mark('sending', [item.clientId]);
        try {
          if (item.files) await uploads!.upload(item);
          else if (auth.session && !d.startsNew()) await auth.authed('POST /api/messages', { body: { text: item.text, clientId: item.clientId } });
          else await d.start(item);
          retries = 0;
        } catch (err) {
          const e = err instanceof ApiError ? err : new ApiError(0, 'internal_error', String(err));
          // Not reached, too many at once (429) or the service busy (503): nothing was sent, so a
          // message waits and goes again a while later, saying "Sending…" (offline: "Waiting for
          // connection…"). Files are not sent again unasked: their chips offer Retry.
          const busy = (e.status === 429 || e.status === 503) && !item.files;
          if ((e.status === 0 && e.code === 'network') || busy) {
            mark(busy ? 'sending' : 'queued', queued.value.map((o) => o.clientId));
            retryTimer = setTimeout(pump, Math.min(30_000, 2000 * 2 ** retries++));
            return;
          }
          shift();
          // The service may have it: no Retry, no text back in the box, so nothing is sent twice.
          if (e.code === 'send_uncertain') mark('uncertain', [item.clientId]);
          else refused(item, e);
          d.report(e);
          continue;
        }
        shift();
        mark(undefined, [item.clientId]);
        // The agent answers now, unless a person has taken over (who may not be there yet).
        if (conversation.state.value.convo === 'active') conversation.setTyping(true);
      }
    } finally {
      pumping = false;
    }
  }

  /** Shows the item at once as the user's message and queues it. */
  function queue(item: Outgoing) {
    if (conversation.state.value.convo === 'archived') d.restart();
    batch(() => {
      failed.value = false;
      for (const fn of sending) fn();
      const { clientId, text } = item;
      conversation.addLocal([{ id: clientId, clientId, role: 'user', text, src: 'l', pending: 'sending', createdAt: new Date().toISOString() }]);
    });
    // Made before the first try and kept with the item: a try whose answer was lost, repeated
    // (even after a reload), gets the conversation it made instead of starting a second one.
    item.key ??= crypto.getRandomValues(new Uint32Array(4)).join('_');
    queued.value = [...queued.value, item];
    void pump();
  }
  /** What else a new message makes stale (hints of the slices beside this one). */
  const sending: (() => void)[] = [];

  // Uploads come with the parts chunk, made on the first file chosen (every other call about files
  // comes after one, so before it there is nothing to do). Their signals are made here so the panel
  // reads them from the start; `createUploads` alone writes them.
  const files: UploadSignals = { chosen: signal<Chosen[]>([]), problem: signal<UploadProblem | undefined>(undefined), sent: signal(new Map()) };
  const toUploads: UploadOutbox = {
    start: d.start,
    queue,
    resend(item) {
      queued.value = [...queued.value, item];
      void pump();
    },
    take() {
      const text = draft.value.trim();
      draft.value = '';
      return text;
    },
    giveBack,
  };
  let uploads: Uploads | undefined;
  const withUploads = () => loadParts().then((p) => (uploads ??= p.createUploads(files, d.bff, auth, conversation.state, d.config, toUploads)));
  sending.push(() => uploads?.stale());
  conversation.onClear(() => uploads?.dismiss());

  return {
    draft: draft as ReadonlySignal<string>,
    failed: failed as ReadonlySignal<boolean>,
    /** The files chosen for the next message (chips), and those uploading or refused. */
    chosen: files.chosen as ReadonlySignal<Chosen[]>,
    /** Why the last files were not taken or not sent, until dealt with. */
    uploadProblem: files.problem as ReadonlySignal<UploadProblem | undefined>,
    /** The files of the messages sent from this page, by clientId. */
    sentFiles: files.sent as ReadonlySignal<ReadonlyMap<string, File[]>>,
    /** The composer's text as typed. */
    setDraft: (text: string) => void (draft.value = text),
    /** Runs `fn` as each new message is queued. */
    onSend: (fn: () => void) => void sending.push(fn),
    /** Shows `text` at once as the user's message and queues it; false for blank text. */
    send(text: string): boolean {
      text = text.trim();
      if (!text) return false;
      queue({ clientId: newId(), text });
      return true;
    },
    /** Sends the composer's text with the chosen files; false when none are waiting. */
    sendFiles: () => !!uploads?.send(),
    /** Adds files as chips (the parts chunk first, the first time); a chunk that cannot come is reported. */
    attach: (picked: File[]) => withUploads().then((u) => u.attach(picked), d.report),
    removeFile: (id: string) => uploads?.remove(id),
    retryUpload: () => uploads?.retry(),
    /** Hides the message about the last files (the × beside it). */
    dismissUpload: () => uploads?.dismiss(),
    /** Forgets the chips (a reset). */
    dropFiles: () => uploads?.drop(),
    /** Back online: sends what waited, at once. */
    resume() {
      retries = 0;
      void pump();
    },
    /** Restores this tab's queue of a previous page load (shown as waiting) and sends it; from now on the queue is kept. */
    restore() {
      const saved = kept<Outgoing[]>('sessionStorage', key);
      const list = Array.isArray(saved) ? saved : [];
      queued.value = [...list, ...queued.value];
      const now = new Date().toISOString();
      conversation.addLocal(list.map((o): ChatMessage => ({ id: o.clientId, clientId: o.clientId, role: 'user', text: o.text, src: 'l', pending: 'queued', createdAt: now })));
      // Files cannot be stored: an upload lives as long as the page.
      unkeep = effect(() => keep('sessionStorage', key, queued.value.filter((o) => !o.files)));
      void pump();
    },
    /** Drops everything waiting (a reset or a new conversation). */
    clear() {
      queued.value = [];
    },
    destroy() {
      destroyed = true;
      clearTimeout(retryTimer);
      unkeep();
    },
  };
}
