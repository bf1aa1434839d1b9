/**
 * Example badges of the scripted agent and the operator console. The service does not document
 * badge JSON, so each kind comes in two spellings (variant 0: `type`-style, variant 1:
 * `kind`-style), which keeps the BFF's tolerant parser honest.
 */
import { badgeWords, type BadgeWords } from './badge-words.js';

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
  asset: string;
  slug: string;
}

const PRODUCTS: Product[] = [
  { name: 'Ridgeline 38L Pack', asset: 'ridgeline-pack.svg', slug: 'ridgeline-38' },
  { name: 'Summit Shell Jacket', asset: 'summit-jacket.svg', slug: 'summit-shell' },
  { name: 'Trailhead Mid Boots', asset: 'trail-boots.svg', slug: 'trailhead-mid' },
  { name: 'Cirrus 2P Tent', asset: 'cirrus-tent.svg', slug: 'cirrus-2p' },
];

/** A badge as the JSON string the service puts in `data.message`, in the language of `locale` (English when unset). */
export function badgeJson(kind: BadgeKind, variant: number, origin: string, locale?: unknown): string {
  const asset = (file: string): string => `${origin}/demo/assets/${file}`;
  const alt = variant % BADGE_VARIANTS === 1;
  const words = badgeWords(locale);
  return JSON.stringify((alt ? kindStyle(kind, asset, words) : typeStyle(kind, asset, words)) ?? sampleOf(kind, alt));
}

/** The products with their blurbs in `w`'s language. */
const products = (w: BadgeWords) => PRODUCTS.map((p, i) => ({ ...p, blurb: w.blurbs[i]! }));

/** A kind the shop has no example of: the parser's own sample (shared/badge-kinds.ts), its type under `kind` in the second spelling. */
function sampleOf(kind: BadgeKind, alt: boolean): Record<string, unknown> {
  const { type, ...rest } = KINDS[kind].sample as Record<string, unknown>;
  return alt ? { kind: type, ...rest } : { type, ...rest };
}

// The shop's examples of each kind, in two spellings; a kind without one sends its sample.
function typeStyle(kind: BadgeKind, asset: (file: string) => string, w: BadgeWords): Record<string, unknown> | undefined {
  switch (kind) {
    case 'buttons':
      return {
        type: 'buttons',
        text: w.buttons[0],
        buttons: [
          { title: w.buttons[1], payload: w.asks.order },
          { title: w.buttons[2], payload: w.asks.hours },
          { title: w.buttons[3], url: `${SHOP}/` },
        ],
      };
    case 'quick_replies':
      return {
        type: 'quick_replies',
        text: w.quick[0],
        quickReplies: [
          { title: w.quick[1], payload: w.asks.shipping },
          { title: w.quick[2], payload: w.asks.size },
          { title: w.quick[3], payload: w.asks.returns },
        ],
      };
    case 'card': {
      const p = products(w)[0]!;
      return {
        type: 'card',
        title: p.name,
        subtitle: p.blurb,
        imageUrl: asset(p.asset),
        buttons: [
          { title: w.viewProduct, url: `${SHOP}/products/${p.slug}` },
          { title: w.inStock, payload: w.inStockAsk(p.name) },
        ],
      };
    }
    case 'carousel':
      return {
        type: 'carousel',
        text: w.carousel[0],
        cards: products(w).map((p) => ({
          title: p.name,
          subtitle: p.blurb,
          imageUrl: asset(p.asset),
          buttons: [{ title: w.viewProduct, url: `${SHOP}/products/${p.slug}` }],
        })),
      };
    case 'list':
      return {
        type: 'list',
        text: w.list.title,
        items: w.list.items.map(([title, subtitle], i) => ({ title, subtitle, ...(i === w.list.items.length - 1 && { url: `${SHOP}/guides/first-aid` }) })),
      };
    case 'image':
      return { type: 'image', url: asset('trail-map.svg'), alt: w.image.alt, caption: w.image.caption };
    case 'file':
      return { type: 'file', url: asset('nimbus-size-guide.txt'), name: 'nimbus-size-guide.txt', mimeType: 'text/plain', size: SIZE_GUIDE_BYTES };
  }
  return undefined;
}

function kindStyle(kind: BadgeKind, asset: (file: string) => string, w: BadgeWords): Record<string, unknown> | undefined {
  switch (kind) {
    case 'buttons':
      return {
        kind: 'buttons',
        text: w.buttonsAlt[0],
        options: [
          { label: w.buttonsAlt[1], value: w.asks.order },
          { label: w.buttonsAlt[2], value: w.asks.returns },
          { label: w.buttonsAlt[3], value: w.asks.shipping },
        ],
      };
    case 'quick_replies':
      return {
        kind: 'quick_replies',
        text: w.quickAlt[0],
        choices: [
          { label: w.quickAlt[1], value: w.asks.dayHike },
          { label: w.quickAlt[2], value: w.asks.tent },
          { label: w.quickAlt[3], value: w.asks.bestsellers },
        ],
      };
    case 'card': {
      const p = products(w)[1]!;
      return {
        kind: 'card',
        label: p.name,
        subtitle: p.blurb,
        image: asset(p.asset),
        options: [{ label: w.viewProduct, url: `${SHOP}/products/${p.slug}` }],
      };
    }
    case 'carousel':
      return {
        kind: 'carousel',
        text: w.carousel[1],
        elements: products(w).reverse().map((p) => ({
          label: p.name,
          subtitle: p.blurb,
          image: asset(p.asset),
          options: [{ label: w.tellMeMore, value: w.askAbout(p.name) }],
        })),
      };
    case 'list':
      return {
        kind: 'list',
        title: w.stores.title,
        elements: [
          { label: 'Boulder Basecamp', subtitle: `1420 Pearl St · ${w.stores.boulder}`, url: `${SHOP}/stores/boulder` },
          { label: 'Denver Union', subtitle: `1701 Wynkoop St · ${w.stores.denver}`, url: `${SHOP}/stores/denver` },
          { label: w.stores.online[0], subtitle: w.stores.online[1], url: `${SHOP}/` },
        ],
      };
    case 'image':
      return { kind: 'image', url: asset('trail-map.svg'), text: w.image.alt, title: w.image.title };
    case 'file':
      return { kind: 'file', url: asset('nimbus-size-guide.txt'), name: w.sizeGuide, size: SIZE_GUIDE_BYTES };
  }
  return undefined;
}

/** The product `text` names (by its first word), with its blurb in the language of `locale`, for the agent's product answers. */
export function productNamed(text: string, locale?: unknown): (Product & { blurb: string }) | undefined {
  const t = text.toLowerCase();
  return products(badgeWords(locale)).find((p) => t.includes((p.name.split(' ')[0] ?? p.name).toLowerCase()));
}

export type { Product };
