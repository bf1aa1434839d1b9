/**
 * Example badges of the scripted agent and the operator console. The service does not document
 * badge JSON, so each kind comes in two spellings (variant 0: `type`-style, variant 1:
 * `kind`-style), which keeps the BFF's tolerant parser honest.
 */

import { BADGE_KINDS as KINDS, BADGE_TYPES, type NamedKind } from '../../shared/badge-kinds.js';

/** Every kind of the `Badge` union a type name can name (all but `unsupported`). */
export const BADGE_KINDS: readonly NamedKind[] = BADGE_TYPES.filter((kind): kind is NamedKind => kind !== 'unsupported');
export type BadgeKind = NamedKind;

/** Number of spellings every kind has. */
export const BADGE_VARIANTS = 2;

const SHOP = 'https://nimbus-outdoor.example';

/** Size in bytes of `demo/site/assets/nimbus-size-guide.txt` (a test keeps this honest). */
export const SIZE_GUIDE_BYTES = 682;

interface Product {
  name: string;
  blurb: string;
  asset: string;
  slug: string;
}

const PRODUCTS: Product[] = [
  { name: 'Ridgeline 38L Pack', blurb: '€149 · 1.2 kg · rain cover included', asset: 'ridgeline-pack.svg', slug: 'ridgeline-38' },
  { name: 'Summit Shell Jacket', blurb: '€229 · 3-layer waterproof, 20k/20k', asset: 'summit-jacket.svg', slug: 'summit-shell' },
  { name: 'Trailhead Mid Boots', blurb: '€179 · grippy Vibram sole, wide fit', asset: 'trail-boots.svg', slug: 'trailhead-mid' },
  { name: 'Cirrus 2P Tent', blurb: '€389 · 1.9 kg · pitches in 3 minutes', asset: 'cirrus-tent.svg', slug: 'cirrus-2p' },
];

/** A badge as the JSON string the service puts in `data.message`. */
export function badgeJson(kind: BadgeKind, variant: number, origin: string): string {
  const asset = (file: string): string => `${origin}/demo/assets/${file}`;
  const alt = variant % BADGE_VARIANTS === 1;
  return JSON.stringify((alt ? kindStyle(kind, asset) : typeStyle(kind, asset)) ?? sampleOf(kind, alt));
}

/** A kind the shop has no example of: the parser's own sample (shared/badge-kinds.ts), its type under `kind` in the second spelling. */
function sampleOf(kind: BadgeKind, alt: boolean): Record<string, unknown> {
  const { type, ...rest } = KINDS[kind].sample as Record<string, unknown>;
  return alt ? { kind: type, ...rest } : { type, ...rest };
}

// The shop's examples of each kind, in two spellings; a kind without one sends its sample.
function typeStyle(kind: BadgeKind, asset: (file: string) => string): Record<string, unknown> | undefined {
  switch (kind) {
    case 'buttons':
      return {
        type: 'buttons',
        text: 'What can I help you with?',
        buttons: [
          { title: 'Track my order', payload: 'Where is my order?' },
          { title: 'Opening hours', payload: 'What are your opening hours?' },
          { title: 'Visit our shop', url: `${SHOP}/` },
        ],
      };
    case 'quick_replies':
      return {
        type: 'quick_replies',
        text: 'Pick one, or just type your question:',
        quickReplies: [
          { title: 'Shipping costs', payload: 'How much is shipping?' },
          { title: 'Size advice', payload: 'Which boot size should I pick?' },
          { title: 'Returns', payload: 'How do returns work?' },
        ],
      };
    case 'card': {
      const p = PRODUCTS[0] as Product;
      return {
        type: 'card',
        title: p.name,
        subtitle: p.blurb,
        imageUrl: asset(p.asset),
        buttons: [
          { title: 'View product', url: `${SHOP}/products/${p.slug}` },
          { title: 'Is it in stock?', payload: `Is the ${p.name} in stock?` },
        ],
      };
    }
    case 'carousel':
      return {
        type: 'carousel',
        text: 'Our bestsellers this season:',
        cards: PRODUCTS.map((p) => ({
          title: p.name,
          subtitle: p.blurb,
          imageUrl: asset(p.asset),
          buttons: [{ title: 'View product', url: `${SHOP}/products/${p.slug}` }],
        })),
      };
    case 'list':
      return {
        type: 'list',
        text: 'Day-hike checklist',
        items: [
          { title: 'Water, 2 litres', subtitle: 'More on hot days' },
          { title: 'Rain shell', subtitle: 'Mountain weather changes fast' },
          { title: 'Map and charged phone', subtitle: 'Offline maps downloaded' },
          { title: 'First-aid kit', subtitle: 'Blister plasters included', url: `${SHOP}/guides/first-aid` },
        ],
      };
    case 'image':
      return { type: 'image', url: asset('trail-map.svg'), alt: 'Map of the Flatirons loop trail', caption: 'Flatirons loop: 9.5 km, 450 m up' };
    case 'file':
      return { type: 'file', url: asset('nimbus-size-guide.txt'), name: 'nimbus-size-guide.txt', mimeType: 'text/plain', size: SIZE_GUIDE_BYTES };
  }
  return undefined;
}

function kindStyle(kind: BadgeKind, asset: (file: string) => string): Record<string, unknown> | undefined {
  switch (kind) {
    case 'buttons':
      return {
        kind: 'buttons',
        text: 'How can I help?',
        options: [
          { label: 'Where is my order?', value: 'Where is my order?' },
          { label: 'Returns and refunds', value: 'How do returns work?' },
          { label: 'Shipping', value: 'How much is shipping?' },
        ],
      };
    case 'quick_replies':
      return {
        kind: 'quick_replies',
        text: 'Quick question for you: what are you planning?',
        choices: [
          { label: 'Day hike', value: 'What do I need for a day hike?' },
          { label: 'Camping trip', value: 'Which tent do you recommend?' },
          { label: 'Just browsing', value: 'Show me your bestsellers' },
        ],
      };
    case 'card': {
      const p = PRODUCTS[1] as Product;
      return {
        kind: 'card',
        label: p.name,
        subtitle: p.blurb,
        image: asset(p.asset),
        options: [{ label: 'View product', url: `${SHOP}/products/${p.slug}` }],
      };
    }
    case 'carousel':
      return {
        kind: 'carousel',
        text: 'New in for the season:',
        elements: [...PRODUCTS].reverse().map((p) => ({
          label: p.name,
          subtitle: p.blurb,
          image: asset(p.asset),
          options: [{ label: 'Tell me more', value: `Tell me about the ${p.name}` }],
        })),
      };
    case 'list':
      return {
        kind: 'list',
        title: 'Our stores',
        elements: [
          { label: 'Boulder Basecamp', subtitle: '1420 Pearl St · Mon–Sat 9:00–19:00', url: `${SHOP}/stores/boulder` },
          { label: 'Denver Union', subtitle: '1701 Wynkoop St · Mon–Sat 10:00–20:00', url: `${SHOP}/stores/denver` },
          { label: 'Online', subtitle: 'Always open, free shipping over €75', url: `${SHOP}/` },
        ],
      };
    case 'image':
      return { kind: 'image', url: asset('trail-map.svg'), text: 'Flatirons loop trail map', title: 'Trail map' };
    case 'file':
      return { kind: 'file', url: asset('nimbus-size-guide.txt'), name: 'Nimbus size guide.txt', size: SIZE_GUIDE_BYTES };
  }
  return undefined;
}

/** Names of the products, for the agent's product answers. */
export function productNamed(text: string): Product | undefined {
  const t = text.toLowerCase();
  return PRODUCTS.find((p) => t.includes((p.name.split(' ')[0] ?? p.name).toLowerCase()));
}

export type { Product };
