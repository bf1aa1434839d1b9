/**
 * Colour scheme `auto` follows the page the widget sits on, then the OS: a light shop on a dark OS
 * gets a light panel. First the page's declared scheme (CSS `color-scheme` on the root, else its
 * `<meta name="color-scheme">`) when it names just one; else its background (body, then root);
 * else the OS when the page offers both schemes (its blank canvas then follows the OS), and light
 * when it declares none (its canvas is white whatever the OS).
 */
import { luminance } from './styles.js';

export type Scheme = 'light' | 'dark';

/**
 * The page's scheme right now. Read when the widget renders (it opens, closes, its settings
 * arrive), not watched: observers would cost bytes for pages that switch while the panel is open.
 */
export function pageScheme(): Scheme {
  const root = document.documentElement;
  const css = getComputedStyle(root).colorScheme;
  const declared = (css === 'normal' ? document.querySelector<HTMLMetaElement>('meta[name=color-scheme]')?.content : css)?.match(/light|dark/g) || [];
  if (declared.length === 1) return declared[0] as Scheme;
  for (const el of [document.body, root]) {
    const rgba = srgb(getComputedStyle(el).backgroundColor);
    if (!rgba) break;
    // A mostly opaque background; dark where white text reads better than black (as in `textOn`).
    if (rgba[3]! > 127) return luminance(rgba) > 0.179 ? 'light' : 'dark';
  }
  return declared.length && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/**
 * A computed colour as sRGB bytes (alpha 0–255). Browsers compute sRGB colours as `rgb()`/`rgba()`,
 * read directly; any other syntax (oklch, color()) is drawn on a 1×1 canvas and read back, which
 * costs a canvas and a read-back (milliseconds on a slow phone), so only those pay it.
 */
function srgb(color: string): number[] | undefined {
  const m = /^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$/.exec(color);
  if (m) return [+m[1]!, +m[2]!, +m[3]!, Math.round(255 * (m[4] === undefined ? 1 : +m[4]))];
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return undefined;
  ctx.fillStyle = color;
  ctx.fillRect(0, 0, 1, 1);
  return [...ctx.getImageData(0, 0, 1, 1).data];
}
