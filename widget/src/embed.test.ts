import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { boot } from './embed.js';
import de from './locales/de.js';
import fr from './locales/fr.js';
import { FakeEventSource, flush, mockEventSource, mockFetch, PUBLIC_CONFIG, sessionBody } from '../test/support.js';

type Global = { Parley?: any };
const w = window as unknown as Global;

function scriptTag(attrs: Record<string, string> = {}) {
  const s = document.createElement('script');
  s.src = 'https://chat.example.com/widget.js';
  for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
  return s;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  mockEventSource();
  document.body.innerHTML = '';
});
afterEach(() => {
  w.Parley?.destroy();
  delete w.Parley;
  vi.unstubAllGlobals();
});

describe('window.Parley', () => {
  it('replays calls queued before load, with queued init options over data-* ones', async () => {
    const api = mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'GET /widget-locales/fr.json': { body: fr } });
    const stub: any = function (...args: unknown[]) {
      (stub.q = stub.q || []).push(args);
    };
    w.Parley = stub;
    const seen: string[] = [];
    w.Parley('on', 'open', () => seen.push('open'));
    w.Parley('on', 'ready', () => seen.push('ready'));
    w.Parley('init', { title: 'Queued title', locale: 'fr' });
    w.Parley('open');

    boot(scriptTag({ 'data-title': 'Data title' }));
    await flush();
    // data-bff defaults to the script's origin; French comes from the BFF, English is built in.
    expect(api.fn.mock.calls.map((call) => call[0])).toEqual(['https://chat.example.com/widget-locales/fr.json', 'https://chat.example.com/api/config']);
    expect(seen).toEqual(['open', 'ready']);

    const root = document.querySelector('[data-parley]')!.shadowRoot!;
    expect(root.querySelector('[role="dialog"]')!.getAttribute('aria-label')).toBe('Queued title');
    expect(root.querySelector('button.launcher')!.getAttribute('aria-label')).toBe('Fermer le chat');
    expect(root.adoptedStyleSheets).toHaveLength(2); // the chat's CSS, and its parts' (lazy.test.tsx)
    expect(root.querySelector('style')).toBeNull();

    // After load, both call styles work.
    // Closed, the panel is out of sight and reach (kept drawn for the next press: focus went to the launcher).
    w.Parley.close();
    await flush();
    expect(root.querySelector('[role="dialog"]:not([inert])')).toBeNull();
    w.Parley('toggle');
    await flush();
    expect(root.querySelector('[role="dialog"]:not([inert])')).not.toBeNull();
  });

  it('replays the queue in order: an early destroy() stays before the init after it, and a call before the first init waits for it', async () => {
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG } });
    const stub: any = function (...args: unknown[]) {
      (stub.q = stub.q || []).push(args);
    };
    w.Parley = stub;
    // A single-page app left its chat page and came back before the chat had loaded.
    w.Parley('open');
    w.Parley('destroy');
    w.Parley('init', { title: 'Back again' });
    boot(scriptTag());
    await flush();
    const root = document.querySelector('[data-parley]')!.shadowRoot!;
    expect(root.querySelector('[role="dialog"]:not([inert])')!.getAttribute('aria-label')).toBe('Back again');

    w.Parley.destroy();
    const again: any = function (...args: unknown[]) {
      (again.q = again.q || []).push(args);
    };
    w.Parley = again;
    w.Parley('init', { title: 'Gone' });
    w.Parley('destroy');
    boot(scriptTag());
    await flush();
    expect(document.querySelector('[data-parley]')).toBeNull();
  });

  it('uses data-bff, renders inline in <parley-chat>, and removes everything on destroy', async () => {
    const api = mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG } });
    document.body.innerHTML = '<parley-chat></parley-chat>';
    boot(scriptTag({ 'data-bff': 'https://bff.example.org/' }));
    await flush();
    expect(api.fn.mock.calls[0]![0]).toBe('https://bff.example.org/api/config');
    const el = document.querySelector('parley-chat')!;
    expect(el.shadowRoot!.querySelector('[role="region"]')).not.toBeNull();
    expect(document.querySelector('[data-parley]')).toBeNull();

    w.Parley.destroy();
    expect(el.shadowRoot!.childNodes).toHaveLength(0);
  });

  it('keeps page handlers across a re-init, and takes them before the first init (data-manual)', async () => {
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG } });
    boot(scriptTag({ 'data-manual': '' }));
    const seen: string[] = [];
    const onOpen = () => seen.push('open');
    w.Parley.on('open', onOpen);
    w.Parley('on', 'ready', () => seen.push('ready'));
    w.Parley.init({ title: 'First' });
    await flush();
    w.Parley.open();
    w.Parley.init({ title: 'Second' }); // opens as the tab left it
    await flush();
    w.Parley.close();
    w.Parley.open();
    w.Parley.off('open', onOpen);
    w.Parley.close();
    w.Parley.init({ title: 'Third' });
    await flush();
    w.Parley.open();
    expect(seen).toEqual(['ready', 'open', 'ready', 'open', 'ready']);
  });

  it('counts nothing as unread inline, where every message is on screen', async () => {
    localStorage.setItem('parley:https://chat.example.com', JSON.stringify(sessionBody(1)));
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'GET /api/messages': { body: { items: [], limit: 20, offset: 0, hasMore: false } } });
    document.body.innerHTML = '<parley-chat></parley-chat>';
    boot(scriptTag());
    const unread: unknown[] = [];
    const messages: unknown[] = [];
    w.Parley.on('unread', (n: unknown) => unread.push(n));
    w.Parley.on('message', (m: unknown) => messages.push(m));
    await flush();
    FakeEventSource.last.emit('message', { id: '7', role: 'bot', text: 'Seen at once' }, 1);
    await flush();
    expect(messages).toHaveLength(1);
    expect(unread).toEqual([]);
  });

  it('speaks German inline once the strings arrived, and English when they cannot be had', async () => {
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'GET /widget-locales/de.json': { body: de } });
    document.body.innerHTML = '<parley-chat></parley-chat>';
    boot(scriptTag({ 'data-locale': 'de' }));
    await flush();
    const inline = document.querySelector('parley-chat')!.shadowRoot!;
    expect(inline.querySelector('textarea')!.getAttribute('placeholder')).toBe('Nachricht schreiben…');
    expect(document.querySelector('[data-parley]')).toBeNull(); // not floating meanwhile
    w.Parley.destroy();

    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'GET /widget-locales/fr.json': 'network' });
    document.body.innerHTML = '';
    w.Parley.init({ locale: 'fr' });
    await flush();
    expect(document.querySelector('[data-parley]')!.shadowRoot!.querySelector('button.launcher')!.getAttribute('aria-label')).toBe('Open chat');
  });

  it('links widget.css from the BFF where stylesheets cannot be constructed (no inline <style>)', async () => {
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG } });
    vi.stubGlobal('CSSStyleSheet', function () {
      throw new TypeError('Illegal constructor');
    });
    vi.resetModules(); // a fresh styles module, without the sheet an earlier test constructed
    const { boot: freshBoot } = await import('./embed.js');
    freshBoot(scriptTag({ 'data-bff': 'https://bff.example.org' }));
    await flush();
    const root = document.querySelector('[data-parley]')!.shadowRoot!;
    expect(root.querySelector('style')).toBeNull();
    expect(root.querySelector('link[rel=stylesheet]')!.getAttribute('href')).toBe('https://bff.example.org/widget.css');
  });

  it('never throws into the page: a bad call becomes a warning or an error event', async () => {
    mockFetch({ 'GET /api/config': 'network' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    boot(scriptTag());
    const errors: unknown[] = [];
    w.Parley.on('error', (e: unknown) => errors.push(e));
    expect(() => w.Parley('no_such_method')).not.toThrow();
    expect(() => w.Parley.identify(null)).not.toThrow();
    await flush();
    expect(errors).toEqual([
      { code: 'unknown_method', message: expect.stringContaining("'no_such_method'") },
      { code: 'network', message: expect.any(String) },
    ]);
    expect(warn.mock.calls[0]!.join(' ')).toContain("'no_such_method'");
    warn.mockRestore();
  });

  it('warns about an unknown method before any widget exists too (data-manual)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    boot(scriptTag({ 'data-manual': '' }));
    const errors: unknown[] = [];
    w.Parley('on', 'error', (e: unknown) => errors.push(e));
    w.Parley('nonsense');
    expect(errors).toEqual([{ code: 'unknown_method', message: expect.stringContaining("'nonsense'") }]);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it('renders a <parley-chat> added after destroy() (a single-page app changing pages), with the last init options', async () => {
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG } });
    document.body.innerHTML = '<parley-chat></parley-chat>';
    boot(scriptTag());
    w.Parley('init', { title: 'Shop help' });
    await flush();
    w.Parley('destroy');
    document.querySelector('parley-chat')!.remove();
    await flush();

    const next = document.createElement('parley-chat');
    document.body.appendChild(next);
    await flush();
    expect(next.shadowRoot!.querySelector('[role="region"]')!.getAttribute('aria-label')).toBe('Shop help');
    expect(document.querySelector('[data-parley]')).toBeNull();
  });

  it('ready reports the answers still unread from before the reload, and a queued show() puts up its bubble', async () => {
    const bff = 'https://chat.example.com';
    document.title = 'Shop';
    localStorage.setItem('parley:' + bff, JSON.stringify(sessionBody(1)));
    localStorage.setItem('parley:' + bff + ':unread', JSON.stringify({ sessionId: 's1', ids: ['a1', 'a2'] }));
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'GET /api/messages': { body: { items: [], hasMore: false } } });
    const stub: any = function (...args: unknown[]) {
      (stub.q = stub.q || []).push(args);
    };
    w.Parley = stub;
    const ready: unknown[] = [];
    w.Parley('on', 'ready', (data: unknown) => ready.push(data));
    w.Parley('show', 'Need a hand?');
    boot(scriptTag());
    await flush();
    expect(ready).toEqual([{ unread: 2 }]);
    expect(document.title).toBe('(2) Shop');
    const root = document.querySelector('[data-parley]')!.shadowRoot!;
    // The bubble comes with the parts chunk.
    await vi.waitFor(() => expect(root.querySelector('[role="status"] button')?.textContent).toBe('Need a hand?'));
    w.Parley.destroy();
    expect(document.title).toBe('Shop');
  });
});
