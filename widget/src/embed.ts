/**
 * The page-level widget: `init` (one widget per page, inline in `<parley-chat>` when present)
 * and `boot`, which turns a script tag into `window.Parley`: it reads the tag's `data-*`
 * settings once, replays the calls queued before the script loaded, and starts.
 */
import { createParley } from './parley.js';
import type { ParleyEventName, ParleyInstance, ParleyOptions } from './public-types.js';

// The loader (loader.ts) installs the same method forms before the chat has come.
const METHODS = ['init', 'open', 'close', 'toggle', 'send', 'show', 'identify', 'update', 'on', 'off', 'reset', 'destroy'] as const;

let current: ParleyInstance | undefined;
let inlineHost: HTMLElement | undefined;
let defaults: ParleyOptions = {};
/** The options of the last `init`, for a `<parley-chat>` that appears after `destroy()`; undefined before any init. */
let lastOptions: ParleyOptions | undefined;
/** `Parley('on', …)` handlers belong to the page: they outlive a re-init and may come before the first. */
const pageHandlers: Array<[ParleyEventName, (data: any) => void]> = [];

/** Creates the page's widget (replacing an earlier one); inline in `<parley-chat>` when the page has one. */
export function init(options: ParleyOptions = {}): ParleyInstance {
  current?.destroy();
  defineElement();
  lastOptions = options;
  inlineHost = options.container || document.querySelector<HTMLElement>('parley-chat') || undefined;
  const widget = createParley({ ...defaults, ...options, theme: { ...defaults.theme, ...options.theme }, container: inlineHost });
  const destroy = widget.destroy;
  widget.destroy = () => {
    destroy();
    if (current === widget) current = undefined;
  };
  for (const [event, fn] of pageHandlers) widget.on(event, fn);
  return (current = widget);
}

/** Tells the page about a call the widget does not have: a warning, and an `error` event to the page's handlers. */
function unknownMethod(method: string) {
  const error = { code: 'unknown_method', message: `Parley('${method}') is not a method; use one of ${METHODS.join(', ')}` };
  console.warn('[parley]', error.message);
  for (const [event, fn] of pageHandlers) if (event === 'error') fn(error);
}

/** A `<parley-chat>` came onto the page or left it. */
function inline(el: HTMLElement, connected: boolean): void {
  if (!connected) {
    if (inlineHost !== el) return;
    inlineHost = undefined;
    current?.mount();
    return;
  }
  if (inlineHost === el) return;
  inlineHost = el;
  // After destroy() (e.g. a single-page app left its chat page), a new element asks for the widget again.
  // (In a microtask: a page that is still setting itself up, e.g. boot() right after, comes first.)
  if (current) current.mount(el);
  else queueMicrotask(() => inlineHost === el && !current && lastOptions && init(lastOptions));
}

/**
 * The element, defined lazily so that importing the module where there is no DOM (SSR) does not
 * fail. The loader (widget.js) defines it first, to fetch the chat when one appears; its class then
 * hands the element's comings and goings to `inline`.
 */
function defineElement() {
  const defined = customElements.get('parley-chat') as (CustomElementConstructor & { inline?: typeof inline }) | undefined;
  if (defined) {
    defined.inline = inline; // the loader's class calls it (ours calls `inline` itself)
    return;
  }
  customElements.define(
    'parley-chat',
    class extends HTMLElement {
      connectedCallback() {
        inline(this, true);
      }
      disconnectedCallback() {
        inline(this, false);
      }
    },
  );
}

type Queued = ArrayLike<unknown>;
type Global = ((method: string, ...args: unknown[]) => unknown) & { q?: Queued[] } & Record<string, unknown>;

/** Installs `window.Parley` for the script tag `script` and starts the widget (unless `data-manual`). */
export function boot(script: HTMLScriptElement) {
  const d = script.dataset;
  lastOptions = undefined; // a fresh window.Parley remembers no earlier init
  const theme = { accent: d.accent, position: d.position, scheme: d.scheme } as ParleyOptions['theme'];
  defaults = { bff: d.bff || new URL(script.src).origin, locale: d.locale, title: d.title, greeting: d.greeting, theme };
  if (d.dir === 'rtl' || d.dir === 'ltr') defaults.dir = d.dir;
  if (d.launcher === 'hours') defaults.launcher = 'hours';
  const w = window as unknown as { Parley?: Global };
  const queue = Array.from(w.Parley?.q || [], (a) => Array.from(a));

  const call = (method: string, ...args: unknown[]): unknown => {
    try {
      if (!(METHODS as readonly string[]).includes(method)) return unknownMethod(method);
      if (method === 'init') return init(args[0] as ParleyOptions);
      if (method === 'on' || method === 'off') {
        const [event, fn] = args as [ParleyEventName, (data: any) => void];
        const i = pageHandlers.findIndex(([e, f]) => e === event && f === fn);
        if (method === 'on' && i < 0) pageHandlers.push([event, fn]);
        if (method === 'off' && i >= 0) pageHandlers.splice(i, 1);
        current?.[method](event, fn);
        // `on` hands back its own removal.
        return method === 'on' ? () => call('off', event, fn) : undefined;
      }
      const fn = (current as unknown as Record<string, unknown> | undefined)?.[method];
      return typeof fn === 'function' ? fn(...args) : undefined;
    } catch (e) {
      console.warn('[parley]', e);
    }
  };
  const api = call as Global;
  for (const m of METHODS) api[m] = (...args: unknown[]) => call(m, ...args);
  w.Parley = api;

  // The queue replays in order, as the calls would have run with the chat there: an early destroy()
  // stays before the init after it. Without `data-manual` and with no init queued, the widget starts
  // first (data-* options); calls for a widget made before the queue's first init wait for it, and a
  // destroy() then has nothing to remove.
  let started = d.manual === undefined && !queue.some((a) => a[0] === 'init');
  if (started) init();
  const held: unknown[][] = [];
  for (const [method, ...args] of queue) {
    const name = String(method);
    if (started || name === 'init' || name === 'on' || name === 'off' || !(METHODS as readonly string[]).includes(name)) call(name, ...args);
    else if (name !== 'destroy') held.push([name, ...args]);
    if (name === 'init' && !started) {
      started = true;
      for (const [m, ...a] of held) call(String(m), ...a);
    }
  }
}

