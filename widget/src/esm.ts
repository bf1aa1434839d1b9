/**
 * `widget.mjs`, for npm users: the same API as the chat (`createParley`, `init`), but the chat itself
 * (Preact, components, stream client) is a second module fetched with `import()` when a widget is
 * created, so an app that bundles Parley pays for it only on the pages that create one, and its
 * bundler can split it off like any dynamic import. The returned instance works at once: calls made
 * before the chat has arrived wait and run in order, `on()` handlers are kept.
 */
import type { ParleyInstance, ParleyOptions } from './public-types.js';

export type * from './public-types.js';

type Chat = typeof import('./chat.js');
type Method = Exclude<keyof ParleyInstance, 'on' | 'off'>;

let chat: Promise<Chat> | undefined;
/** Fetches the chat now (for example when the pointer nears your own chat button); safe to call often. */
export const preload = (): Promise<Chat> => (chat ??= import('./chat.js'));

/** Creates a widget; it shows once the DOM is ready and the chat has loaded. */
export const createParley = (options: ParleyOptions = {}): ParleyInstance => later((c) => c.createParley(options));

/** Creates the page's widget (replacing an earlier one), inline in `<parley-chat>` when the page has one. */
export const init = (options: ParleyOptions = {}): ParleyInstance => later((c) => c.init(options));

/** An instance whose calls wait for the chat, then go to the real one in the order they were made. */
function later(make: (chat: Chat) => ParleyInstance): ParleyInstance {
  const waiting: Array<(real: ParleyInstance) => void> = [];
  // Kept apart too, so that they hear it if the chat never comes.
  const onError = new Set<(e: unknown) => void>();
  let real: ParleyInstance | undefined;
  let destroyed = false;
  const call =
    (method: Method) =>
    (...args: unknown[]) => {
      if (method === 'destroy' && !real) destroyed = true;
      const run = (r: ParleyInstance) => (r[method] as (...a: unknown[]) => void)(...args);
      if (real) run(real);
      else waiting.push(run);
    };
  const api: ParleyInstance = {
    open: call('open'),
    close: call('close'),
    toggle: call('toggle'),
    send: call('send'),
    show: call('show'),
    identify: call('identify'),
    update: call('update'),
    reset: call('reset'),
    mount: call('mount'),
    destroy: call('destroy'),
    on(event, fn) {
      if (real) real.on(event, fn);
      else waiting.push((r) => r.on(event, fn));
      if (event === 'error') onError.add(fn as (e: unknown) => void);
      return () => api.off(event, fn);
    },
    off(event, fn) {
      if (real) real.off(event, fn);
      else waiting.push((r) => r.off(event, fn));
      onError.delete(fn as (e: unknown) => void);
    },
  };
  preload().then(
    (c) => {
      if (destroyed) return;
      real = make(c);
      for (const run of waiting.splice(0)) run(real);
    },
    (e: unknown) => {
      // The chat could not be fetched: the page's `error` handlers hear it, as for any widget failure.
      const error = { code: 'chat_unavailable', message: `The chat could not load: ${String(e)}` };
      console.warn('[parley]', error.message);
      chat = undefined; // a later createParley tries again
      onError.forEach((fn) => fn(error));
    },
  );
  return api;
}
