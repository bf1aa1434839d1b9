/** An untrusted JSON object. */
export type Rec = Record<string, unknown>;

/** True for a plain object (not null, not an array): the check used at every untrusted boundary. */
export function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
