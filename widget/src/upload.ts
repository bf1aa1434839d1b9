/**
 * File uploads: chosen files wait as chips (`st.chosen`, checked against the limits as they come)
 * until the visitor sends; then they go with the composer's text as one message to `POST
 * /api/upload`, each chip showing its share of the upload's progress. Uploads go through the
 * store's outbox, so they keep their place among the messages.
 */
import { safeFileName } from '../../shared/file-name.js';
import { ApiError, refusal } from './api.js';
import type { RouteKey } from '../../shared/routes.js';
import type { Auth } from './auth.js';
import { newId } from './messages.js';
import type { Chosen, Outgoing, State } from './state.js';

/** What the uploads need of the store's outbox. */
interface Outbox {
  /** Starts the conversation with the item's text. */
  start(item: Outgoing): Promise<void>;
  /** Shows the item as the user's message and queues it. */
  queue(item: Outgoing): void;
  /** Queues the item again without showing it twice. */
  resend(item: Outgoing): void;
}

/** The upload actions of one store: `attach`, `remove`, `send` and `retry` for the UI, `upload` and `refused` for the outbox. */
export function createUploads(bff: string, st: State, auth: Auth, out: Outbox) {
  /** Changes the chips of `files` (by `File` identity: a chip is its file). */
  const chips = (files: File[], change: Partial<Chosen> | null) =>
    (st.chosen.value = st.chosen.value.flatMap((c) => (!files.includes(c.file) ? [c] : change ? [{ ...c, ...change }] : [])));

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
        st.chosen.value = st.chosen.value.map((c) => {
          const i = files.indexOf(c.file);
          const part = (loaded - starts[i]!) / (c.file.size || 1);
          return i < 0 ? c : { ...c, progress: Math.round(100 * Math.min(1, Math.max(0, part))) };
        });
      };
      await auth.withToken((token) => post(bff, token, item, progress));
      chips(files, null);
    } catch (e) {
      // The service may have them: gone from the chips, the message says "may have been sent".
      if (e instanceof ApiError && e.code === 'send_uncertain') chips(files, null);
      throw e;
    }
  }

  /** Adds `files` as chips; those over the limits are refused here, by name. */
  function attach(picked: File[]) {
    const files = picked.map(sendable);
    const lim = st.config.value?.limits;
    const fit = files.filter((f) => !lim || f.size <= lim.maxUploadBytes);
    const room = lim ? Math.max(0, lim.maxUploadFiles - st.chosen.value.length) : fit.length;
    const left = files.filter((f) => !fit.includes(f)).concat(fit.slice(room));
    // A refused send's message (with its Retry) stands until dealt with; an earlier limits message goes.
    if (left.length) st.upload.value = { code: fit.length > room ? 'too_many' : 'too_big', names: left.map((f) => f.name) };
    else if (st.upload.value?.names) st.upload.value = undefined;
    st.chosen.value = [...st.chosen.value, ...fit.slice(0, room).map((file) => ({ id: newId(), file }))];
  }

  /** Sends the composer's text with the chips not already on their way; false when there are none. */
  function send(): boolean {
    const files = st.chosen.value.filter((c) => c.progress === undefined).map((c) => c.file);
    if (!files.length) return false;
    // The message names the files after the composer's text (4000 characters at most, as the BFF wants).
    const draft = st.draft.value.trim();
    const names = '📎 ' + files.map((f) => f.name).join(', ');
    st.draft.value = '';
    st.upload.value = undefined;
    chips(files, { progress: 0, failed: false });
    out.queue({ clientId: newId(), text: (draft ? draft + '\n' + names : names).slice(0, 4000), files });
    return true;
  }

  /**
   * Refused files: their chips say so and stay for Retry. A message that never arrived leaves the
   * thread, and its text goes back into the composer, so nothing typed is lost.
   */
  function refused(item: Outgoing, code: string) {
    const arrived = item.sent || st.messages.value.some((m) => m.clientId === item.clientId);
    chips(item.files!, { progress: undefined, failed: true });
    st.upload.value = { code, item: arrived ? item : undefined };
    const typed = item.text.replace(/\n?📎 [^\n]*$/, '');
    if (!arrived && typed) st.draft.value = st.draft.value ? typed + '\n' + st.draft.value : typed;
  }

  /** Retry: the refused files alone when their message is on screen, else the composer's text with the chips. */
  function retry() {
    const item = st.upload.value?.item;
    st.upload.value = undefined;
    if (!item) return void send();
    item.files = st.chosen.value.filter((c) => c.failed).map((c) => c.file);
    if (!item.files.length) return;
    item.sent = true;
    chips(item.files, { progress: 0, failed: false });
    out.resend(item);
  }

  /** Takes a chip away (the × on it). */
  function remove(id: string) {
    st.chosen.value = st.chosen.value.filter((c) => c.id !== id);
  }

  return { upload, attach, send, refused, retry, remove };
}

/** The file under a name the BFF takes (shared/file-name.ts): what it refuses is left out, a name too long is cut. */
function sendable(file: File): File {
  const name = safeFileName(file.name);
  return name === file.name ? file : new File([file], name, { type: file.type, lastModified: file.lastModified });
}

/**
 * Posts the item's files (and its text, unless that already arrived) as multipart with `token`;
 * `XMLHttpRequest` because `fetch` reports no upload progress. `progress` gets the bytes of the files sent so far.
 */
function post(bff: string, token: string, item: Outgoing, progress: (loaded: number) => void): Promise<unknown> {
  const form = new FormData();
  for (const f of item.files!) form.append('files', f);
  if (!item.sent) {
    form.append('text', item.text);
    form.append('clientId', item.clientId);
  }
  return new Promise((ok, fail) => {
    const x = new XMLHttpRequest();
    // Its key in the route table: the method, a space and the path.
    const [method, path] = ('POST /api/upload' satisfies RouteKey).split(' ') as [string, string];
    x.open(method, bff + path);
    x.setRequestHeader('authorization', 'Bearer ' + token);
    // The multipart framing is spread over the files in proportion: `loaded` in file bytes.
    const bytes = item.files!.reduce((n, f) => n + f.size, 0);
    x.upload.onprogress = (e) => e.lengthComputable && progress((e.loaded / e.total) * bytes);
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
