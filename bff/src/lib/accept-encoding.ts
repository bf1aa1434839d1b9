// Content negotiation for the compressed widget files (RFC 9110 §12.5.3).

/** The codings the widget files are kept in besides identity, most preferred first. */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/**
 * The coding to send for an `Accept-Encoding` header, among `available`: br, then gzip, each only if
 * the header accepts it (named, or through `*`, with a `q` above 0). Undefined means identity.
 */
export function pickEncoding(header: string | undefined, available: readonly Coding[]): Coding | undefined {
  const weights = codingWeights(header ?? '');
  const accepts = (coding: Coding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
  return CODINGS.find((coding) => available.includes(coding) && accepts(coding));
}

/** Each coding the header names, lower-cased, with its weight: 1 without `q`, 0 for one unreadable (refused rather than guessed). */
function codingWeights(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => /^q\s*=/.test(param));
    weights.set(name, q === undefined ? 1 : qValue(q.slice(q.indexOf('=') + 1).trim()));
  }
  return weights;
}

/** A `qvalue` (0 to 1, at most three decimals); 0 for anything else. */
function qValue(text: string): number {
  return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text) ? Number(text) : 0;
}
