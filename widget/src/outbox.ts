/**
 * The outbox: what the visitor sends, in order. A message shows at once as the user's own, waits
 * out network failures (kept per tab across a reload; files only for the page's life), and on a
 * refusal comes back into the text box (files stay with the error for Retry). A send that may have
 * reached the service (`send_uncertain`) is never offered again, so nothing is sent twice.
 */
import { batch } from '@preact/signals';
import { ApiError, type ApiError as ApiErrorType } from './api.js';
import { isFatal, type Auth } from './auth.js';
import type { ConversationActions } from './conversation.js';
import { newId, type ChatMessage } from './messages.js';
import type { Outgoing, State } from './state.js';
import { createUploads } from './upload.js';

/** What the outbox needs of the rest of the store. */
export interface OutboxDeps {
  bff: string;
  st: State;
  auth: Auth;
  conversation: ConversationActions;
  /** Starts a conversation with the item's text (no session yet, or "New conversation"). */
  start(item: Outgoing): Promise<void>;
  /** True while the next text must start a conversation although a session exists. */
  startsNew(): boolean;
  /** An archived conversation is left for a new one before a message goes. */
  restart(): void;
  report(e: unknown): void;
  /** Per-tab storage for the queue (sessionStorage). */
  remember(key: string, value: string): void;
}

/** Creates the outbox of one store; `key` is where the queue is kept for this tab. */
export function createOutbox(key: string, d: OutboxDeps) {
  const { st, auth, conversation } = d;
  let items: Outgoing[] = [];
  let pumping = false;
  let destroyed = false;
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  // Files cannot be stored: an upload lives as long as the page.
  const save = () => d.remember(key, JSON.stringify(items.filter((o) => !o.files)));

  // Any source: a retried upload's text may already be confirmed while its files go again. Not
  // "uncertain" once the stream brought it (the BFF found it in the service's history first).
  function mark(pending: ChatMessage['pending'], clientIds: string[]) {
    st.messages.value = st.messages.value.map((m) => (clientIds.includes(m.clientId!) && (pending !== 'uncertain' || m.src === 'l') ? { ...m, pending } : m));
  }

  /** A refused item: its text back in the box (its files stay as chips for Retry), and the reason reported. */
  function refused(item: Outgoing, e: ApiErrorType) {
    if (e.code === 'conversation_archived') conversation.setConvo('archived');
    // Uploads being off is not the conversation's end.
    else if (isFatal(e) && e.code !== 'feature_disabled') conversation.lost();
    batch(() => {
      // A text that already arrived stays on screen.
      if (item.sent) mark(undefined, [item.clientId]);
      else st.messages.value = st.messages.value.filter((m) => m.clientId !== item.clientId || m.src !== 'l');
      if (item.files) uploads.refused(item, e.code);
      else {
        st.draft.value = st.draft.value ? item.text + '\n' + st.draft.value : item.text;
        st.failed.value = true;
      }
    });
  }

  /** Sends the queue in order; network failures keep it for later, refusals give the text back. */
  async function pump() {
    if (pumping || destroyed) return;
    pumping = true;
    clearTimeout(retryTimer);
    try {
      while (items.length && !destroyed) {
        const item = items[0]!;
        if (!st.online.value) return mark('queued', items.map((o) => o.clientId));
        mark('sending', [item.clientId]);
        try {
          if (item.files) await uploads.upload(item);
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
            mark(busy ? 'sending' : 'queued', items.map((o) => o.clientId));
            retryTimer = setTimeout(pump, Math.min(30_000, 2000 * 2 ** retries++));
            return;
          }
          items.shift();
          save();
          // The service may have it: no Retry, no text back in the box, so nothing is sent twice.
          if (e.code === 'send_uncertain') mark('uncertain', [item.clientId]);
          else refused(item, e);
          d.report(e);
          continue;
        }
        items.shift();
        save();
        mark(undefined, [item.clientId]);
        // The agent answers now, unless a person has taken over (who may not be there yet).
        if (st.convo.value === 'active') conversation.setTyping(true);
      }
    } finally {
      pumping = false;
    }
  }

  /** Shows the item at once as the user's message and queues it. */
  function queue(item: Outgoing) {
    if (st.convo.value === 'archived') d.restart();
    batch(() => {
      st.failed.value = false;
      st.switched.value = false;
      // A refusal of earlier files is stale now; one that can be retried stays until Retry or dismiss.
      if (!st.upload.value?.item) st.upload.value = undefined;
      const { clientId, text } = item;
      st.messages.value = [...st.messages.value, { id: clientId, clientId, role: 'user', text, src: 'l', pending: 'sending', createdAt: new Date().toISOString() }];
    });
    // Made before the first try and kept with the item: a try whose answer was lost, repeated
    // (even after a reload), gets the conversation it made instead of starting a second one.
    item.key ??= crypto.getRandomValues(new Uint32Array(4)).join('_');
    items.push(item);
    save();
    void pump();
  }

  const uploads = createUploads(d.bff, st, auth, {
    start: d.start,
    queue,
    resend(item) {
      items.push(item);
      void pump();
    },
  });

  return {
    /** Shows `text` at once as the user's message and queues it; false for blank text. */
    send(text: string): boolean {
      text = text.trim();
      if (!text) return false;
      queue({ clientId: newId(), text });
      return true;
    },
    /** Sends the composer's text with the chosen files; false when none are waiting. */
    sendFiles: uploads.send,
    attach: uploads.attach,
    removeFile: uploads.remove,
    retryUpload: uploads.retry,
    /** Back online: sends what waited, at once. */
    resume() {
      retries = 0;
      void pump();
    },
    /** Restores this tab's queue of a previous page load (shown as waiting) and sends it. */
    restore(saved: Outgoing[]) {
      items = saved;
      const now = new Date().toISOString();
      st.messages.value = [...st.messages.value, ...saved.map((o): ChatMessage => ({ id: o.clientId, clientId: o.clientId, role: 'user', text: o.text, src: 'l', pending: 'queued', createdAt: now }))];
      void pump();
    },
    /** Drops everything waiting (a reset or a new conversation). */
    clear() {
      items = [];
      save();
    },
    destroy() {
      destroyed = true;
      clearTimeout(retryTimer);
    },
  };
}
