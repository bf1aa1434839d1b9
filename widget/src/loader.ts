/**
 * `widget.js`: the loader (docs/embedding.md, "What the page pays"). It costs a page whose visitor
 * never touches the chat nothing but itself: no request, no framework. It installs the queued
 * `window.Parley`, draws the launcher in plain DOM, and fetches the chat (a second file with its
 * content hash in its name, checked with `integrity`) only when it is needed: the visitor points
 * at, focuses or clicks the launcher, a call needs it, this browser already has a conversation
 * (at idle, so its stream and unread count stay live), `<parley-chat>` is on the page, or
 * `init({preload: true})`. The chat then takes over `window.Parley` and replays every call
 * queued so far, in order.
 *
 * While the page loads, this file only installs `window.Parley`: the launcher is drawn, and this
 * browser's storage read, when the page has loaded and the main thread is idle, so the embed adds
 * no work to the page's own start (bench/page.ts measures it).
 */
import { FRAME_CSS, LAUNCHER_CSS } from './loader-styles.js';

// Written by the build (scripts/build-widget.mjs): the chat file's name and its SRI hash.
declare const __PARLEY_CHUNK__: string;
declare const __PARLEY_CHUNK_SRI__: string;
// By language, from the locale files (English built in): the launcher's name and the frame's text box's placeholder.
declare const __PARLEY_LABELS__: Record<string, [string, string]>;

type Call = unknown[];
type Global = ((...args: unknown[]) => unknown) & { q?: ArrayLike<unknown>[]; s?: HTMLScriptElement } & Record<string, unknown>;
interface Chat {
  boot(script: HTMLScriptElement): void;
}
type Win = Window & { Parley?: Global; __parleyChat?: (chat: Chat) => void; trustedTypes?: { createPolicy(name: string, rules: object): { createScriptURL(url: string): string } } };

// Calls that need the chat itself; the rest wait in the queue until it comes.
const NEEDS_CHAT = new Set(['open', 'toggle', 'send', 'show', 'identify', 'reset']);
// Every method, also as `Parley.open()` … from the moment this file has run (embed.ts has the same list).
const METHODS = 'init open close toggle send show identify update on off reset destroy'.split(' ');
// Where the chat is: not asked for yet, on its way, refused (tried again later), here.
const WAITING = 0;
const LOADING = 1;
const FAILED = 2;
const LOADED = 3;
const RETRY_MS = [2_000, 5_000, 15_000];
const w = window as Win;
const LABELS = __PARLEY_LABELS__; // once: the build writes the object where it is named
const me = document.currentScript as HTMLScriptElement | null;

if (me?.src && !w.Parley?.s) start(me);

function start(script: HTMLScriptElement): void {
  const d = script.dataset;
  const chunkUrl = new URL(__PARLEY_CHUNK__, script.src).href;
  const bff = (d.bff || new URL(script.src).origin).replace(/\/+$/, '');
  const queue: Call[] = Array.from(w.Parley?.q || [], (a) => Array.from(a));
  let state = WAITING;
  let failures = 0;
  let host: HTMLElement | undefined;
  let launcher: HTMLButtonElement | undefined;
  let frame: HTMLElement | undefined;
  let input: HTMLTextAreaElement | undefined;
  let knowing: Promise<boolean> | undefined;
  let pointed = false;

  const option = (name: string): unknown => {
    let value: unknown;
    for (const call of queue) if (call[0] === 'init' && call[1] && typeof call[1] === 'object' && name in call[1]) value = (call[1] as Record<string, unknown>)[name];
    return value;
  };
  const started = () => d.manual === undefined || queue.some((c) => c[0] === 'init');

  const api = ((...args: unknown[]) => {
    queue.push(args);
    if (needsChat(args)) load();
    else if (args[0] === 'destroy') removeLauncher();
    else if (args[0] === 'init') afterLoad(redraw);
  }) as Global;
  api.q = queue;
  api.s = script;
  for (const m of METHODS) api[m] = (...args: unknown[]) => api(m, ...args);
  // `on` hands back its own removal, as the chat's does.
  api.on = (event: unknown, fn: unknown) => (api('on', event, fn), () => api('off', event, fn));
  w.Parley = api;

  // A Trusted Types policy (named "parley") that creates exactly one script URL: the chat's.
  let policy: { createScriptURL(url: string): string } | undefined;
  const scriptUrl = () =>
    (policy ??= w.trustedTypes?.createPolicy('parley', {
      createScriptURL: (url: string) => {
        if (url !== chunkUrl) throw new TypeError('parley'); // only the chat's own URL
        return url;
      },
    }))?.createScriptURL(chunkUrl) ?? chunkUrl;

  function load(): void {
    if (state === LOADING || state === LOADED) return;
    state = LOADING;
    launcher?.classList.remove('failed');
    const el = document.createElement('script');
    el.type = 'module';
    el.src = scriptUrl();
    el.integrity = __PARLEY_CHUNK_SRI__;
    el.crossOrigin = 'anonymous';
    if (script.nonce) el.nonce = script.nonce; // so 'strict-dynamic' and nonce CSPs trust it too
    el.onerror = () => {
      el.remove();
      if (launcher) {
        launcher.classList.add('failed');
        launcher.setAttribute('aria-label', 'Chat could not load. Try again');
        launcher.lang = 'en';
      }
      // A visitor waiting on the frame is left on the launcher, which now says the chat could not load
      // (while still "loading", so its focus does not try again at once).
      if (input && host!.shadowRoot!.activeElement === input) launcher!.focus();
      state = FAILED;
      failures++;
      frame?.remove();
      frame = undefined;
      // Nothing is lost: the queue waits for the next try (a click, or a timer a while later).
      setTimeout(() => state === FAILED && load(), RETRY_MS[Math.min(failures, RETRY_MS.length) - 1]);
    };
    w.__parleyChat = (chat) => {
      state = LOADED;
      delete w.__parleyChat;
      api.q = queue;
      chat.boot(script); // takes over window.Parley and replays the queue, in order
      // Pointed at while the chat came: the chat's launcher, drawn now under the pointer, draws its panel ahead of the click.
      if (pointed) chatLauncher()?.dispatchEvent(new PointerEvent('pointerenter'));
      // The chat draws its own launcher and panel; ours go once it is ready.
      const parley = w.Parley as unknown as { on?: (e: string, fn: () => void) => void };
      parley.on?.('ready', removeLauncher);
      if (!started()) removeLauncher();
    };
    document.head.appendChild(el);
  }

  /** What the visitor typed into the frame goes into the chat's text box (the chat, once here, has taken focus). */
  function handOver(): void {
    const text = input?.value;
    if (text && state === LOADED) {
      input!.value = '';
      w.Parley!('open', { prefill: text });
    }
  }

  function removeLauncher(): void {
    handOver();
    // A visitor who tabbed to our launcher (which fetched the chat) keeps focus: on the chat's own.
    const focused = !!host?.shadowRoot?.activeElement;
    host?.remove();
    host = launcher = frame = input = undefined;
    if (focused) chatLauncher()?.focus();
  }

  /** The chat's own launcher, once it has drawn one. */
  const chatLauncher = () => document.querySelector('[data-parley]')?.shadowRoot?.querySelector<HTMLElement>('.launcher');

  /**
   * Opens at once: a frame where the panel will be, with a text box that takes the visitor's typing
   * (Enter queues it as a message); the chat then fills the frame and its own text box takes the text.
   */
  function open(): void {
    if (state === LOADED) return void w.Parley!('open');
    api('open');
    if (!host || frame) return;
    const root = host.shadowRoot!;
    if (root.adoptedStyleSheets.length < 2) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(FRAME_CSS);
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    }
    frame = document.createElement('div');
    frame.className = launcher!.classList.contains('left') ? 'frame left' : 'frame';
    // A stand-in, not the dialog: the chat's own panel is the dialog.
    const head = document.createElement('div');
    head.className = 'head';
    head.textContent = (option('title') as string) || d.title || '';
    const box = (input = document.createElement('textarea'));
    box.placeholder = LABELS[lang()]![1]; // also its accessible name
    box.onkeydown = (e) => {
      if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
      e.preventDefault();
      if (box.value.trim()) api('send', box.value);
      box.value = '';
    };
    // The chat's text box took focus: it takes the text too.
    box.onblur = handOver;
    frame.append(head, box);
    root.appendChild(frame);
    box.focus();
  }

  /** The page's language, where the build has its words (else English). */
  function lang(): string {
    const l = String(option('locale') || d.locale || navigator.language).slice(0, 2).toLowerCase();
    return LABELS[l] ? l : 'en';
  }

  function draw(): void {
    if (host || state === LOADED || !started() || option('launcher') === false || document.querySelector('parley-chat')) return;
    host = document.createElement('div');
    host.setAttribute('data-parley-loader', '');
    const root = host.attachShadow({ mode: 'open' });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(LAUNCHER_CSS);
    root.adoptedStyleSheets = [sheet];
    const theme = (option('theme') || {}) as { accent?: string; position?: string; scheme?: string; offset?: { x?: number; y?: number }; zIndex?: number };
    const accent = (theme.accent || d.accent || '').trim();
    if (/^#[0-9a-f]{3,8}$/i.test(accent)) sheet.insertRule(`:host{--a:${accent}}`, 1); // after the default's rule, so it wins
    const style = host.style;
    // A scheme the chat is told to use colours the frame too ('auto', not a CSS value, is ignored).
    style.colorScheme = theme.scheme || d.scheme || '';
    // Placed as the chat places its own (styles.ts): numbers only, anything else is the default.
    const { x, y } = theme.offset || {};
    if (isFinite(x!)) style.setProperty('--ox', x + 'px');
    if (isFinite(y!)) style.setProperty('--oy', y + 'px');
    if (isFinite(theme.zIndex!)) style.setProperty('--parley-z-index', '' + theme.zIndex);
    launcher = document.createElement('button');
    launcher.type = 'button';
    launcher.className = (theme.position || d.position) === 'left' ? 'launcher left' : 'launcher';
    const given = (option('strings') as { open?: string } | undefined)?.open;
    const l = lang();
    launcher.setAttribute('aria-label', given || LABELS[l]![0]);
    // A screen reader reads the label in its language (the page's own words: the page's language).
    if (!given) launcher.lang = l;
    launcher.setAttribute('aria-expanded', 'false');
    const svgNs = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(svgNs, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    const path = document.createElementNS(svgNs, 'path');
    path.setAttribute('d', 'M21 11.5a8.4 8.4 0 0 1-12.2 7.5L3 21l2-5.6A8.4 8.4 0 1 1 21 11.5z'); // Icon.tsx's CHAT
    svg.appendChild(path);
    launcher.appendChild(svg);
    // Pointing at the launcher or tabbing to it fetches the chat, so it is there by the click.
    launcher.addEventListener('pointerenter', () => {
      pointed = true;
      load();
    });
    launcher.addEventListener('pointerleave', () => (pointed = false));
    launcher.addEventListener('focus', load);
    launcher.addEventListener('click', open);
    // The chat may arrive between press and release and draw its own launcher over ours: the release
    // then lands on the chat's, and neither gets a click. A release over the same spot still opens it.
    const button = launcher;
    button.addEventListener('pointerdown', () => {
      const r = button.getBoundingClientRect();
      const up = (u: PointerEvent) =>
        !u.composedPath().includes(button) && u.clientX >= r.left && u.clientX <= r.right && u.clientY >= r.top && u.clientY <= r.bottom && open();
      w.addEventListener('pointerup', up, { once: true, capture: true });
    });
    root.appendChild(launcher);
    document.body.appendChild(host);
  }

  /** Draws the launcher again with the options of a later `init` (its colour, side, or none), unless the chat is opening. */
  function redraw(): void {
    if (frame) return;
    host?.remove();
    host = launcher = undefined;
    show();
  }

  /** Draws the launcher, unless it follows the support hours and the team is away (visitors with a conversation always get it). */
  function show(): void {
    if ((option('launcher') ?? d.launcher) !== 'hours') return draw();
    void known().then((yes) => {
      if (yes) return draw();
      // The one request a first visit makes, and only where the page asked for it (docs/embedding.md).
      fetch(bff + '/api/config')
        .then((r) => r.json())
        .then(({ handoff: h }: { handoff?: { open: boolean; launcher: string } }) => (h?.launcher === 'hide' && !h.open) || draw())
        .catch(draw); // unknown hours: the launcher rather than no way in
    });
  }

  /**
   * Whether this browser has a conversation with this BFF, asked without blocking the page: the chat
   * keeps an empty IndexedDB database named like its storage key while it has one (session.ts), and
   * `indexedDB.databases()` answers asynchronously, where a page's first localStorage read waits on
   * the browser (15 ms of the main thread at 4× CPU, bench/page.ts). Every browser still supported
   * has the list (Firefox since 126, Safari 14, Chrome 71); one that refuses it (storage blocked)
   * has, as far as we can tell, no conversation.
   */
  function known(): Promise<boolean> {
    // Asked once.
    return (knowing ??= Promise.resolve()
      .then(() => indexedDB.databases())
      .then((list) => list.some((db) => db.name === 'parley:' + bff), () => false));
  }

  for (const call of queue) if (needsChat(call)) load();
  // An email's continue link (docs/api.md "Continuity by email"): the chat opens on its conversation.
  if (/^#parley-resume=/.test(location.hash)) load();
  // `<parley-chat>`: an inline chat is content the visitor came for, so the chat comes as soon as one
  // is on the page, also one added later (a single-page app). Once the chat is there, it takes the
  // element's comings and goings through `inline` (embed.ts).
  customElements.get('parley-chat') ||
    customElements.define(
      'parley-chat',
      class InlineChat extends HTMLElement {
        declare static inline?: (el: HTMLElement, connected: boolean) => void;
        connectedCallback() {
          if (InlineChat.inline) InlineChat.inline(this, true);
          else load();
        }
        disconnectedCallback() {
          InlineChat.inline?.(this, false);
        }
      },
    );
  afterLoad(() => {
    show();
    // This browser has a conversation: the chat comes now, so its stream, unread count and alerts stay live.
    void known().then((yes) => yes && load());
  });
}

/** Whether a call can only be answered by the chat itself (so it is fetched now). */
function needsChat(call: Call): boolean {
  return NEEDS_CHAT.has(String(call[0])) || (call[0] === 'init' && !!(call[1] as { preload?: boolean } | undefined)?.preload);
}

/** Runs `fn` once the page has loaded and the main thread is idle (at most a second later). */
function afterLoad(fn: () => void): void {
  const idle = () => (w.requestIdleCallback ? w.requestIdleCallback(fn, { timeout: 1_000 }) : setTimeout(fn, 50));
  if (document.readyState === 'complete') idle();
  else w.addEventListener('load', idle, { once: true });
}
