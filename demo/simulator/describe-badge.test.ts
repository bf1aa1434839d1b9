import { describe, expect, it } from 'vitest';
import { describeBadge, preview } from './conversations.js';

describe("describeBadge (the console's previews of rich elements)", () => {
  it('names a card by its product, in either badge shape', () => {
    expect(describeBadge({ type: 'card', title: 'Summit Shell Jacket', subtitle: 'Waterproof' })).toBe('Card: Summit Shell Jacket');
    expect(describeBadge({ kind: 'card', label: 'Summit Shell Jacket' })).toBe('Card: Summit Shell Jacket');
  });

  it('counts and names the cards of a carousel', () => {
    expect(describeBadge({ type: 'carousel', text: 'Picks', cards: [{ title: 'Jacket' }, { title: 'Tent' }] })).toBe('Carousel: 2 cards (Jacket, Tent)');
    expect(describeBadge({ kind: 'carousel', elements: [{ label: 'Tent' }] })).toBe('Carousel: 1 card (Tent)');
  });

  it('gives buttons, quick replies, files and images what they say', () => {
    expect(describeBadge({ type: 'buttons', text: 'What can I help with?', buttons: [{ title: 'Order' }] })).toBe('Buttons: What can I help with?');
    expect(describeBadge({ type: 'quick_replies', items: [{ title: 'Shipping' }, { title: 'Sizes' }] })).toBe('Quick replies: Shipping, Sizes');
    expect(describeBadge({ type: 'file', name: 'size-guide.txt' })).toBe('File: size-guide.txt');
    expect(describeBadge({ type: 'image', alt: 'Trail map' })).toBe('Image: Trail map');
    expect(describeBadge({ type: 'image' })).toBe('Image');
  });

  it('is no badge without a kind, and a preview clips a long description', () => {
    expect(describeBadge({ title: 'x' })).toBeUndefined();
    expect(preview(JSON.stringify({ type: 'card', title: 'Summit Shell Jacket' }))).toBe('Card: Summit Shell Jacket');
    expect(preview(JSON.stringify({ type: 'card', title: 'x'.repeat(100) })).length).toBe(80);
  });
});
