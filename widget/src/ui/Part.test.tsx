import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { freshBrowserEachTest, makeCtx } from '../../test/support.js';

// Each test gets Part.tsx afresh: the chunk is fetched once per page, and these tests are about that fetch.
freshBrowserEachTest(() => {
  cleanup();
  vi.resetModules();
  document.head.querySelectorAll('link').forEach((l) => l.remove());
});

async function drawn(pin?: string) {
  await import('../parley.js'); // which says where the chunk comes from
  const lazy = await import('./Part.js');
  if (pin !== undefined) (await import('../pin.js')).pinChunks(pin);
  const { ctx } = await makeCtx();
  render(<lazy.Part name="ZoomDialog" ctx={ctx} props={{ src: 'https://shop.example/a.png', name: 'Tent', alt: '', ctx, onClose() {} }} />);
  return lazy;
}
const preload = () => document.head.querySelector<HTMLLinkElement>('link[rel=modulepreload]');
const dialog = () => screen.queryByRole('dialog', { name: 'Tent' });

describe('the parts chunk (pre-chat form, rating, lightbox, transcript)', () => {
  it('is fetched when a part is first drawn, which shows once it has come', async () => {
    await drawn();
    expect(dialog()).toBeNull();
    await waitFor(() => expect(dialog()).toBeTruthy());
    expect(preload()).toBeNull(); // widget.mjs: the app's bundler placed the chunk, nothing to pin
  });

  it("brings its parts' CSS: every root's second sheet is empty until the chunk is in", async () => {
    const { adoptStyles } = await import('../styles.js');
    const host = document.createElement('div');
    const root = host.attachShadow({ mode: 'open' });
    adoptStyles(root, 'https://chat.example.com');
    const [, parts] = root.adoptedStyleSheets;
    expect(parts!.cssRules).toHaveLength(0);
    await drawn();
    await waitFor(() => expect(dialog()).toBeTruthy());
    expect([...parts!.cssRules].map((r) => r.cssText).join('\n')).toContain('dialog.lightbox');
  });

  it("loaded by the loader, it is pinned: a modulepreload with the chunk's integrity and the page's nonce comes first", async () => {
    await drawn('n0nce');
    const link = preload()!;
    expect(link.integrity).toBe('__PARLEY_PARTS_SRI__'); // written by the build (size.test.ts checks the built chat)
    expect(link.nonce).toBe('n0nce');
    expect(link.crossOrigin).toBe('anonymous');
    expect(link.href).toMatch(/__PARLEY_PARTS_FILE__$/);
    // Nothing is imported before the checked fetch is done.
    await new Promise((r) => setTimeout(r, 50));
    expect(dialog()).toBeNull();
    act(() => void link.dispatchEvent(new Event('load')));
    await waitFor(() => expect(dialog()).toBeTruthy());
    expect(preload()).toBeNull(); // the page's <head> is left as it was
  });

  it('a failed fetch (network, integrity) leaves a button that tries again, and the next try shows the part', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await drawn('');
    act(() => void preload()!.dispatchEvent(new Event('error')));
    const retry = await screen.findByRole('button', { name: 'This part of the chat could not load. Try again' });
    expect(warn).toHaveBeenCalled();
    fireEvent.click(retry);
    expect(screen.queryByRole('button', { name: /could not load/ })).toBeNull();
    act(() => void preload()!.dispatchEvent(new Event('load')));
    await waitFor(() => expect(dialog()).toBeTruthy());
    warn.mockRestore();
  });
});
