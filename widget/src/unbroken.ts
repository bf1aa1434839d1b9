/**
 * Codes kept whole: an order number or a reference such as "NO-48213", "AB-12-C7" or a date
 * "2026-11-28" must not break at its hyphen, where the reader would take the two halves for two
 * words. Such a run (letters or digits, a hyphen, then a digit) goes in a `.nowrap` span; the
 * text itself is not changed, so it copies and searches as written. A run too long for a narrow
 * bubble is left to wrap.
 */
import { h, type ComponentChildren } from 'preact';

const CODE = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*-\p{N}[\p{L}\p{N}]*(?:-[\p{L}\p{N}]+)*/gu;
const LONGEST = 24;

export function unbroken(text: string): ComponentChildren {
  if (!text.includes('-')) return text;
  const out: ComponentChildren[] = [];
  let at = 0;
  for (const m of text.matchAll(CODE)) {
    if (m[0].length > LONGEST) continue;
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(h('span', { class: 'nowrap' }, m[0]));
    at = m.index + m[0].length;
  }
  if (!at) return text;
  if (at < text.length) out.push(text.slice(at));
  return out;
}
