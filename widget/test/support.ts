/**
 * Test doubles for the widget's two network edges: `fetch` (a small router of canned answers
 * that records every call) and `EventSource` (driven by the test). Used by `*.test.ts(x)` only.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { partsFrom } from '../src/parts-loader.js';
import { createStore, type Store } from '../src/store.js';

// The parts chunk comes from parts.ts, as parley.ts says for the chat (also for stores made here without it).
partsFrom(() => import('../src/parts.js'));

export interface Call {
  method: string;
  path: string;
  body: any;
  auth?: string;
}

type Answer = { status?: number; body?: unknown } | 'network';
type Route = (call: Call) => Answer | Promise<Answer> | undefined;

/** Replaces `fetch`: `routes` maps "METHOD /path" (query string ignored) to an answer or a function. */
export function mockFetch(routes: Record<string, Answer | Route>) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) => {
    const url = new URL(input);
    const call: Call = {
      method: init.method || 'GET',
      path: url.pathname + url.search,
      body: init.body ? JSON.parse(init.body) : undefined,
      auth: init.headers?.authorization,
    };
    calls.push(call);
    const route = routes[`${call.method} ${url.pathname}`] ?? (call.method === 'POST' && url.pathname === '/api/events/ticket' ? ticketFor : undefined);
    const answer = typeof route === 'function' ? await route(call) : route;
    if (!answer) return new Response(JSON.stringify({ error: { code: 'not_found', message: 'no route' } }), { status: 404 });
    if (answer === 'network') throw new TypeError('Failed to fetch');
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fn);
  return { calls, fn, to: (method: string, path: string) => calls.filter((call) => call.method === method && call.path.startsWith(path)) };
}

/** The BFF's stream ticket, made readable: it names the access token it was asked with. */
const ticketFor: Route = (call) => ({ body: { ticket: 'ticket-for-' + (call.auth ?? '').replace('Bearer ', '') } });

/** An `EventSource` the test drives: `emit` a named event, `fail` the connection. */
export class FakeEventSource {
  static all: FakeEventSource[] = [];
  static get last(): FakeEventSource {
    return FakeEventSource.all[FakeEventSource.all.length - 1]!;
  }
  onopen: (() => void) | null = null;
  closed = false;
  private listeners = new Map<string, Set<(e: unknown) => void>>();

  constructor(readonly url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: unknown) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(fn);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.();
  }
  emit(event: string, data: unknown, id: number) {
    for (const fn of this.listeners.get(event) || []) fn({ type: event, data: JSON.stringify(data), lastEventId: String(id) });
  }
  fail() {
    for (const fn of this.listeners.get('error') || []) fn(new Event('error'));
  }
  /** The access token this stream was opened with: the one its ticket was asked for. */
  get token() {
    return new URL(this.url).searchParams.get('ticket')?.replace('ticket-for-', '') ?? null;
  }
}

/** Installs `FakeEventSource` as the global `EventSource`. */
export function mockEventSource() {
  FakeEventSource.all = [];
  vi.stubGlobal('EventSource', FakeEventSource);
}

/** An `XMLHttpRequest` the test drives: `progress` reports bytes sent, `respond` answers, `fail` drops it. */
export class FakeXHR {
  static all: FakeXHR[] = [];
  static get last(): FakeXHR {
    return FakeXHR.all[FakeXHR.all.length - 1]!;
  }
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | undefined;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    FakeXHR.all.push(this);
  }
  open(method: string, url: string) {
    Object.assign(this, { method, url });
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number, body?: unknown) {
    this.status = status;
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.onload?.();
  }
  fail() {
    this.onerror?.();
  }
  /** The multipart fields sent: file names for `files`, the text of the others. */
  get fields(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const [k, v] of this.body!.entries()) (out[k] ||= []).push(typeof v === 'string' ? v : v.name);
    return out;
  }
}

/** Installs `FakeXHR` as the global `XMLHttpRequest`. */
export function mockXHR() {
  FakeXHR.all = [];
  vi.stubGlobal('XMLHttpRequest', FakeXHR);
}

export const BFF = 'https://bff.test';
export const KEY = 'parley:' + BFF;

/** The session stored for `BFF`, parsed. */
export const stored = () => JSON.parse(localStorage.getItem(KEY) || 'null');

/** Stores a session for `BFF` as an earlier page load would have. */
export function seedSession(extra: Record<string, unknown> = {}) {
  localStorage.setItem(KEY, JSON.stringify({ ...sessionBody(1), ...extra }));
}

/** A session response with a token valid for `ttlSec`. */
export function sessionBody(n = 1, ttlSec = 900) {
  return { sessionId: 's' + n, token: 'tok' + n, refreshToken: 'ref' + n, expiresAt: new Date(Date.now() + ttlSec * 1000).toISOString() };
}

/** Lets pending promises (fetch chains) settle. */
export async function flush(times = 10) {
  for (let i = 0; i < times; i++) await new Promise((ok) => setTimeout(ok, 0));
}

export const PUBLIC_CONFIG = {
  mode: 'agent',
  features: { escalation: true, upload: false, flows: [] },
  identity: 'off',
  title: 'Nimbus help',
  greeting: 'Hello from the config',
  theme: { accent: '#0b6e4f', position: 'right', scheme: 'light' },
  limits: { textMaxLength: 4000, maxUploadBytes: 1, maxUploadFiles: 1 },
  userVariables: [],
};

/** Stands in for Web Audio; returns the start time of every beep played from then on. */
export function stubAudio(): number[] {
  const started: number[] = [];
  class FakeAudio {
    currentTime = 0;
    destination = {};
    createOscillator = () => ({ frequency: {}, connect: (n: unknown) => n, start: (t: number) => started.push(t), stop: () => {} });
    createGain = () => ({ gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n: unknown) => n });
  }
  vi.stubGlobal('AudioContext', FakeAudio);
  return started;
}

/** The settings of a BFF in model mode: a model answers, nobody to hand over to, no uploads. */
export const MODEL_CONFIG = { ...PUBLIC_CONFIG, mode: 'model', features: { escalation: false, upload: false, flows: [] } };

/** A component context around a real store (the test mocks `fetch` and `EventSource` first). */
/** Stores made by `makeCtx`, destroyed after each test so none reconnects once the fakes are gone. */
const ctxStores = new Set<{ actions: { destroy(): void } }>();

export async function makeCtx(overrides: Partial<import('../src/ui/ctx.js').Ctx> = {}) {
  const { createStore } = await import('../src/store.js');
  const { pickStrings } = await import('../src/i18n.js');
  const events: Array<[string, unknown]> = [];
  const s = createStore('https://bff.test', (name, data) => events.push([name, data]));
  ctxStores.add(s);
  return { ctx: { store: s, strings: pickStrings(), options: {}, dir: 'ltr' as const, inline: false, locale: 'en-GB', ...overrides }, events };
}

/**
 * Renders the whole widget for `PUBLIC_CONFIG` (or `config`), an empty history by default, and boots its store.
 * The parts chunk is there too, as it is a moment after a part is first drawn (lazy.test.tsx tests that moment).
 */
export async function mountApp(routes: Record<string, Answer | Route> = {}, options: Parameters<typeof makeCtx>[0] = {}, config: object = PUBLIC_CONFIG) {
  const { act, render } = await import('@testing-library/preact');
  const { h } = await import('preact');
  const { App } = await import('../src/components/App.js');
  const { loadParts } = await import('../src/ui/Part.js');
  const api = mockFetch({ 'GET /api/config': { body: config }, 'GET /api/messages': { body: { items: [], hasMore: false } }, ...routes });
  const { ctx, events } = await makeCtx(options);
  render(h(App, { ctx }));
  await act(async () => {
    await ctx.store.actions.boot();
    await loadParts();
    await flush();
  });
  return { api, ctx, events };
}

/** Each test starts with empty storage and a fake `EventSource`; `after` runs before globals are restored. */
export function freshBrowserEachTest(after: () => void = () => {}) {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    mockEventSource();
  });
  afterEach(() => {
    after();
    for (const store of ctxStores) store.actions.destroy();
    ctxStores.clear();
    vi.unstubAllGlobals();
  });
}

/**
 * A store per test, started as the widget starts it, with the events it emits recorded in `events`
 * (emptied at each start), in a fresh browser each test (`freshBrowserEachTest`); the store is
 * destroyed and the mocks undone after it.
 */
export function storeUnderTest(): { start(): Store; events: Array<[string, unknown]> } {
  let store: Store | undefined;
  const events: Array<[string, unknown]> = [];
  freshBrowserEachTest(() => {
    store?.actions.destroy();
    store = undefined;
    vi.restoreAllMocks();
  });
  return {
    events,
    start() {
      events.length = 0;
      store = createStore(BFF, (name, data) => events.push([name, data]));
      void store.actions.boot();
      return store;
    },
  };
}
