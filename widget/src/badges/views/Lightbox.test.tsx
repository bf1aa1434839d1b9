import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { Badge } from '../../../../shared/types.js';
import { freshBrowserEachTest, makeCtx, mockFetch, sessionBody } from '../../../test/support.js';
import { BadgeView } from '../index.js';
import { loadParts } from '../../ui/Part.js';

async function show(badge: Badge) {
  mockFetch({ 'POST /api/session': { status: 201, body: sessionBody() } });
  const { ctx } = await makeCtx();
  await loadParts(); // a carousel is drawn from the parts chunk
  render(
    <div role="dialog" aria-label="Chat" onKeyDown={(e) => e.key === 'Escape' && e.currentTarget.setAttribute('data-closed', '')}>
      <BadgeView badge={badge} ctx={ctx} last />
    </div>,
  );
}

const carousel: Badge = {
  type: 'carousel',
  cards: [
    { title: 'Trail tent', imageUrl: 'https://shop.example/trail.jpg', buttons: [] },
    { title: 'Dome tent', imageUrl: 'https://shop.example/dome.jpg', buttons: [] },
  ],
};

freshBrowserEachTest(cleanup);

describe('lightbox', () => {
  it("a card's image is a button that opens it full size in a dialog named after the card, with focus on its close button", async () => {
    await show(carousel);
    fireEvent.click(screen.getByRole('button', { name: 'Enlarge image: Dome tent' }));
    const box = await screen.findByRole('dialog', { name: 'Dome tent' }); // its part of the chat arrives first
    expect(within(box).getByRole('img', { name: 'Dome tent' }).getAttribute('src')).toBe('https://shop.example/dome.jpg');
    expect(document.activeElement).toBe(within(box).getByRole('button', { name: 'Close image' }));
  });

  it('Escape closes it, not the chat around it, and focus goes back to the image', async () => {
    await show(carousel);
    const image = screen.getByRole('button', { name: 'Enlarge image: Trail tent' });
    fireEvent.click(image);
    fireEvent.keyDown(await screen.findByRole('button', { name: 'Close image' }), { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Trail tent' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Chat' }).hasAttribute('data-closed')).toBe(false);
    expect(document.activeElement).toBe(image);
  });

  it('the close button closes it and focus goes back to the image', async () => {
    await show({ type: 'image', url: 'https://shop.example/map.png', alt: 'Map to the store' });
    const image = screen.getByRole('button', { name: 'Enlarge image: Map to the store' });
    fireEvent.click(image);
    fireEvent.click(await screen.findByRole('button', { name: 'Close image' }));
    expect(screen.queryByRole('dialog', { name: 'Map to the store' })).toBeNull();
    expect(document.activeElement).toBe(image);
  });
});
