/**
 * File uploads: the limit check before anything is sent, the user's message for the files, and
 * the multipart request to `POST /api/upload` with upload progress. Uploads go through the
 * store's outbox, so they keep their place among the messages.
 */
import { ApiError, refusal } from './api.js';
import type { Auth } from './auth.js';
import { newId, type ChatMessage } from './messages.js';
import type { Outgoing, State } from './state.js';

/** What the uploads need of the store's outbox. */
interface Outbox {
  /** Starts the conversation with the item's text. */
  start(item: Outgoing): Promise<void>;
  /** Shows the item as the user's message and queues it. */
  queue(item: Outgoing): void;
  /** Queues the item again without showing it twice. */
  resend(item: Outgoing): void;
  mark(pending: ChatMessage['pending'], clientIds: string[], progress?: number): void;
}

/** The upload actions of one store: `attach` and `retry` for the UI, `upload` for the outbox. */
export function createUploads(bff: string, st: State, auth: Auth, out: Outbox) {
  /** Sends an item's files, after starting the conversation with its text if there is none. */
  async function upload(item: Outgoing) {
    if (!auth.session) {
      await out.start(item);
      item.sent = true;
    }
    const progress = (p: number) => out.mark('sending', [item.clientId], p);
    progress(0);
    await auth.withToken((token) => post(bff, token, item, progress));
  }

  /** Sends `files` with the composer's text; nothing goes when they break the limits. */
  function attach(files: File[]) {
    const lim = st.config.value?.limits;
    const code = !lim ? '' : files.length > lim.maxUploadFiles ? 'too_many' : files.some((f) => f.size > lim.maxUploadBytes) ? 'too_big' : '';
    st.upload.value = code ? { code } : undefined;
    if (code || !files.length) return;
    // The message names the files after the composer's text (4000 characters at most, as the BFF wants).
    const draft = st.draft.value.trim();
    const names = '📎 ' + files.map((f) => f.name).join(', ');
    st.draft.value = '';
    out.queue({ clientId: newId(), text: (draft ? draft + '\n' + names : names).slice(0, 4000), files });
  }

  /** Sends the failed upload again: only its files when its text already arrived (the message is on screen). */
  function retry() {
    const item = st.upload.value?.item;
    st.upload.value = undefined;
    if (!item) return;
    if (!item.sent && !st.messages.value.some((m) => m.clientId === item.clientId)) return out.queue(item);
    item.sent = true;
    out.resend(item);
  }

  return { upload, attach, retry };
}

/**
 * Posts the item's files (and its text, unless that already arrived) as multipart with `token`;
 * `XMLHttpRequest` because `fetch` reports no upload progress. `progress` gets the percentage sent.
 */
function post(bff: string, token: string, item: Outgoing, progress: (pct: number) => void): Promise<unknown> {
  const form = new FormData();
  for (const f of item.files!) form.append('files', f);
  if (!item.sent) {
    form.append('text', item.text);
    form.append('clientId', item.clientId);
  }
  return new Promise((ok, fail) => {
    const x = new XMLHttpRequest();
    x.open('POST', bff + '/api/upload');
    x.setRequestHeader('authorization', 'Bearer ' + token);
    x.upload.onprogress = (e) => e.lengthComputable && progress(Math.round((100 * e.loaded) / e.total));
    x.onload = () => {
      let data: unknown = {};
      try {
        data = JSON.parse(x.responseText);
      } catch {
        // an empty or non-JSON body: the status alone decides
      }
      if (x.status < 300) ok(data);
      else fail(refusal(x.status, data));
    };
    // Like a rejected fetch: no answer at all, so the outbox tries again later.
    x.onerror = x.onabort = () => fail(new ApiError(0, 'network', 'Upload failed'));
    x.send(form);
  });
}
