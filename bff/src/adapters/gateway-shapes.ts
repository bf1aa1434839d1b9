import { isRecord } from '../../../shared/records.js';

/**
 * Tolerant readers of gateway answers. The seed shows only `choices[0].message.content`;
 * everything else is "not shown", so these accept the OpenAI-compatible shapes in common use.
 */

/** A model from `GET /models`, with whatever price fields the gateway sent. */
export interface ModelInfo {
  id: string;
  /** Price fields as sent (`pricing`/`price`/`prices` objects flattened, `*price*`/`*cost*` keys), e.g. `{input: 0.2}`. */
  prices: Record<string, number | string>;
  /** Other short descriptive fields when present (`owned_by`, `context_length`, …). */
  details: Record<string, number | string>;
}

const PRICE_KEY = /price|cost|pricing/i;
const DETAIL_KEYS = ['owned_by', 'provider', 'context_length', 'context_window', 'type', 'currency'];

/** `{data:[…]}`, `{models:[…]}` or a bare array; items are objects with `id` (or `name`/`model`) or plain strings. */
export function parseModels(body: unknown): ModelInfo[] {
  const list = Array.isArray(body) ? body : isRecord(body) ? (body.data ?? body.models ?? body.items) : undefined;
  if (!Array.isArray(list)) return [];
  const models: ModelInfo[] = [];
  for (const item of list) {
    if (typeof item === 'string') {
      models.push({ id: item, prices: {}, details: {} });
      continue;
    }
    if (!isRecord(item)) continue;
    const id = [item.id, item.name, item.model].find((v): v is string => typeof v === 'string' && v !== '');
    if (!id) continue;
    const prices: Record<string, number | string> = {};
    const details: Record<string, number | string> = {};
    for (const [key, value] of Object.entries(item)) {
      if (PRICE_KEY.test(key)) flattenInto(prices, isRecord(value) && /^(pricing|prices?)$/i.test(key) ? '' : key, value);
      else if (DETAIL_KEYS.includes(key) && isPlain(value)) details[key] = value;
    }
    models.push({ id, prices, details });
  }
  return models;
}

/** Text of a non-streamed chat completion: `choices[0].message.content` (string or content parts). */
export function completionText(body: unknown): string | undefined {
  const choice = firstChoice(body);
  if (!choice) return undefined;
  return contentText(isRecord(choice.message) ? choice.message.content : undefined) ?? (typeof choice.text === 'string' ? choice.text : undefined);
}

/** What one `data:` chunk of a streamed completion carries. */
export interface StreamChunk {
  delta?: string;
  /** The chunk has a `finish_reason`: the reply is complete even if `[DONE]` never comes. */
  finished?: boolean;
  /** An error object sent in-band after the 200 (some gateways do this). */
  error?: { code?: string; type?: string; message?: string };
}

/** Reads a `chat.completion.chunk` (`choices[0].delta.content`), tolerating `message`/`text` forms. */
export function parseStreamChunk(json: unknown): StreamChunk {
  if (isRecord(json) && isRecord(json.error)) {
    const e = json.error;
    return { error: { code: str(e.code), type: str(e.type), message: str(e.message) } };
  }
  const choice = firstChoice(json);
  if (!choice) return {};
  const chunk: StreamChunk = {};
  const delta =
    contentText(isRecord(choice.delta) ? choice.delta.content : undefined) ??
    contentText(isRecord(choice.message) ? choice.message.content : undefined) ??
    (typeof choice.text === 'string' ? choice.text : undefined);
  if (delta) chunk.delta = delta;
  if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') chunk.finished = true;
  return chunk;
}

/** Text of a `/responses` answer: `output_text`, or the `output_text` parts of `output[].content[]`. */
export function responsesText(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  if (typeof body.output_text === 'string') return body.output_text;
  if (!Array.isArray(body.output)) return completionText(body);
  const parts: string[] = [];
  for (const item of body.output) {
    if (!isRecord(item) || !Array.isArray(item.content)) continue;
    for (const part of item.content) if (isRecord(part) && typeof part.text === 'string') parts.push(part.text);
  }
  return parts.length > 0 ? parts.join('') : undefined;
}

/** Vectors of an `/embeddings` answer: `data[].embedding`, or a bare `embedding`/`embeddings`. */
export function embeddingVectors(body: unknown): number[][] {
  const isVector = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number');
  if (!isRecord(body)) return [];
  if (Array.isArray(body.data)) {
    return body.data
      .filter(isRecord)
      .sort((a, b) => (typeof a.index === 'number' && typeof b.index === 'number' ? a.index - b.index : 0))
      .map((d) => d.embedding)
      .filter(isVector);
  }
  if (isVector(body.embedding)) return [body.embedding];
  return Array.isArray(body.embeddings) ? body.embeddings.filter(isVector) : [];
}

const CREDIT_CODES = /^(insufficient_quota|insufficient_credits?|insufficient_funds|credit_exhausted|budget_exhausted|budget_exceeded|quota_exceeded|billing_hard_limit_reached|payment_required)$/i;
const CREDIT_WORDS = /insufficient (credit|funds|quota|balance)|exceeded your (current )?quota|(credit|budget|balance)\b[^.]{0,40}\b(exhausted|exceeded|used up|depleted|insufficient)/i;

/**
 * True when a 403/429 error body says the credit or budget is used up (OpenAI answers
 * `429 insufficient_quota`, for instance), as opposed to a rate limit worth retrying.
 */
export function saysCreditExhausted(text: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return CREDIT_WORDS.test(text);
  }
  const e = isRecord(json) && isRecord(json.error) ? json.error : json;
  if (isRecord(e) && [e.code, e.type].some((v) => typeof v === 'string' && CREDIT_CODES.test(v))) return true;
  return isRecord(e) && typeof e.message === 'string' && CREDIT_WORDS.test(e.message);
}

function firstChoice(body: unknown): Record<string, unknown> | undefined {
  if (!isRecord(body) || !Array.isArray(body.choices)) return undefined;
  const choice: unknown = body.choices[0];
  return isRecord(choice) ? choice : undefined;
}

/** `content` is a string, or (in newer formats) an array of `{type:'text', text}` parts. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const text = content.map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).join('');
  return text === '' ? undefined : text;
}

function flattenInto(out: Record<string, number | string>, prefix: string, value: unknown, depth = 0): void {
  if (isPlain(value)) {
    out[prefix || 'price'] = value;
  } else if (isRecord(value) && depth < 2) {
    for (const [k, v] of Object.entries(value)) flattenInto(out, prefix ? `${prefix}.${k}` : k, v, depth + 1);
  }
}

function isPlain(v: unknown): v is number | string {
  return (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length <= 100);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
