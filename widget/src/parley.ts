/**
 * One widget instance: its store, its UI in a shadow root (floating, or inline in an element)
 * and its public API. Nothing here throws into the page: failures become `error` events.
 */
import { h, render } from 'preact';
import { App } from './components/App.js';
import { langOf, loadStrings, localeTag, pickDir, pickStrings } from './i18n.js';
import type { ParleyEventName, ParleyInstance, ParleyOptions } from './public-types.js';
import { partsFrom } from './parts-loader.js';
import { createStore } from './store.js';
import { adoptStyles } from './styles.js';
import { BADGE_CSS } from './badges/index.js';

// The parts chunk: its own module, fetched the first time one of its parts is needed (parts-loader.ts).
partsFrom(() => import('./parts.js'));

type Handler = (data: any) => void;

/** Creates a widget for `options.bff` (default: this page's origin) and shows it once the DOM is ready. */
export function createParley(options: ParleyOptions = {}): ParleyInstance {
  const bff = (options.bff || location.origin).replace(/\/+$/, '');
  const handlers: { [K in ParleyEventName]?: Set<Handler> } = {};
  const emit = (event: string, data?: unknown) => {
    const set = handlers[event as ParleyEventName];
    if (!set?.size && event === 'error') console.warn('[parley]', data);
    set?.forEach((fn) => {
      try {
        fn(data);
      } catch (e) {
        console.error(e); // an integrator's handler must not break the widget
      }
    });
  };
  const store = createStore(bff, emit, options.profileName, options.identityToken, options.sound, options.locale);
  const ctx = { store, strings: pickStrings(undefined, options.strings), dir: pickDir(options.locale, options.dir), options, inline: false, locale: 'en' };
  let host: HTMLElement | undefined;
  let root: ShadowRoot | undefined;
  let dead = false;
  // Where to show the UI, and whether its strings are here: a language other than English is
  // fetched first, so nobody sees English flash by. Until then `mount` only remembers the place.
  let target = options.container;
  let stringsReady = false;

  const unmount = () => {
    if (root) render(null, root);
    if (!ctx.inline) host?.remove();
    host = root = undefined;
  };
  const mount = (el?: HTMLElement) => {
    unmount();
    ctx.inline = !!el;
    store.actions.setInline(ctx.inline);
    host = el || document.body.appendChild(document.createElement('div'));
    if (!el) host.setAttribute('data-parley', '');
    root = host.shadowRoot || host.attachShadow({ mode: 'open' });
    adoptStyles(root, bff, BADGE_CSS);
    render(h(App, { ctx: { ...ctx } }), root);
  };

  // Every entry point from the page goes through here: a widget failure stays a widget failure.
  const guard =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A): void => {
      if (dead) return;
      try {
        fn(...args);
      } catch (e) {
        emit('error', { code: 'internal_error', message: String(e) });
      }
    };

  const api: ParleyInstance = {
    open: guard((o?: { prefill?: string }) => {
      // Put into the text box, not sent: the visitor reads it, changes it and sends it.
      if (typeof o?.prefill === 'string') store.actions.setDraft(o.prefill);
      store.actions.setOpen(true);
    }),
    close: guard(() => store.actions.setOpen(false)),
    toggle: guard(() => store.actions.setOpen(!store.state.open.value)),
    send: guard((text: string) => void store.actions.send(String(text ?? ''))),
    show: guard((text: string) => store.actions.show(String(text ?? ''))),
    identify: guard((p) => store.actions.identify(p || {})),
    update: guard((u) => store.actions.update(u || {})),
    on(event, fn) {
      (handlers[event] ||= new Set()).add(fn as Handler);
      return () => api.off(event, fn);
    },
    off(event, fn) {
      handlers[event]?.delete(fn as Handler);
    },
    reset: guard(() => store.actions.reset()),
    mount: guard((el?: HTMLElement) => {
      target = el;
      if (stringsReady) mount(el);
    }),
    destroy: guard(() => {
      store.actions.destroy();
      unmount();
      dead = true;
    }),
  };

  const start = guard(() => {
    if (options.variables) store.actions.identify({ variables: options.variables });
    if (options.open) store.actions.setOpen(true);
    const shown = loadStrings(bff, langOf(options.locale)).then(
      guard((table) => {
        ctx.strings = pickStrings(table, options.strings);
        // Times in the language of the strings; the browser's own variant of it (en-GB, de-AT, ar-EG with
        // Arabic digits) when it has one and the page named only the language.
        const page = localeTag(options.locale);
        const own = localeTag(undefined);
        const browser = page.indexOf('-') < 0 && langOf(own) === langOf(page) ? own : page;
        ctx.locale = table || langOf(browser) === 'en' ? browser : 'en';
        stringsReady = true;
        mount(target);
      }),
    );
    Promise.all([store.actions.boot(), shown]).then(() => emit('ready', { unread: store.state.unread.value }));
  });
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
  return api;
}
