/**
 * The upstream agent service's message shapes (webhook envelopes, history items, session ids)
 * turned into Parley's own: the one place that knows how the service spells things.
 */
import { createHash } from 'node:crypto';
import { parseMessageText } from '../../../shared/badge.js';
import { isRecord } from '../../../shared/records.js';
import type { ConversationState, Message, Role, StreamEvent } from '../../../shared/types.js';
import { authorOf, type AuthorBook } from '../people/authors.js';

/** A verified webhook, parsed: what to dedup on, where it goes, and what (if anything) to store. */
export interface NormalizedWebhook {
  kind: string;
  dedupKey: string;
  conversationId?: string;
  /** Undefined for kinds that carry nothing the widget shows (e.g. `conversation.created`, unknown kinds). */
  event?: StreamEvent;
  /** Why a known kind was left out (no conversation, no text, the user's own message). */
  skipped?: string;
}

/** Thrown for a well-signed body that is not a usable event envelope. */
export class EnvelopeError extends Error {}

/**
 * Canonical conversation key: upstream `sessionId` is an integer in events and `session` a
 * string from the send call (docs/api.md "Webhooks"); both become the same decimal string.
 */
export function conversationKey(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string') {
    const s = value.trim();
    if (/^\d{1,16}$/.test(s)) return String(Number(s));
    if (/^[A-Za-z0-9_.:-]{1,128}$/.test(s)) return s;
  }
  return undefined;
}

/**
 * Turns a verified webhook body (already JSON-parsed) into what the store needs. `timestamp` is the
 * signed `x-service-timestamp`: with the raw body, all that may decide deduplication is signed data.
 * `browserVariables` names the user variables the visitor's browser may see (docs/api.md "Event stream").
 */
export function normalizeWebhook(
  body: unknown,
  rawBody: Uint8Array,
  timestamp: string,
  browserVariables: readonly string[] = [],
  authors?: AuthorBook,
): NormalizedWebhook {
  if (!isRecord(body)) throw new EnvelopeError('Webhook body must be a JSON object');
  const kind = body.event;
  if (typeof kind !== 'string' || kind === '') throw new EnvelopeError('Webhook body has no "event" kind');

  const bodyEventId = typeof body.eventId === 'string' || typeof body.eventId === 'number' ? String(body.eventId) : undefined;
  // Only signed data decides: the body's own id, else a hash of what the signature covers (timestamp
  // and body). The unsigned x-service-event-id header never does: a captured body replayed inside the
  // signature window with a fresh header id would otherwise be delivered twice.
  const dedupKey = bodyEventId ?? `sha256:${createHash('sha256').update(`${timestamp}.`).update(rawBody).digest('hex')}`;
  const conversationId = conversationKey(body.sessionId ?? body.session);
  const data = isRecord(body.data) ? body.data : {};
  // The service may leave the time out (the seed shows both): then the time it signed the webhook.
  const at = toIso(body.createdAt) ?? toIso(timestamp);

  // A signed event the chat cannot use (no conversation, no text) is acknowledged and left out,
  // with a reason for the logs: a 4xx would only make the service send it again and again.
  const result: NormalizedWebhook = { kind, dedupKey, conversationId };
  if (conversationId === undefined) {
    if (KNOWN_KINDS.has(kind) && kind !== 'conversation.created') result.skipped = 'no valid "sessionId"';
    return result;
  }
  switch (kind) {
    case 'message.added': {
      const message = toMessage(data, at, bodyEventId ?? dedupKey, authors);
      // The BFF put the user's own message on the stream when the service accepted it.
      if (message?.role === 'user') result.skipped = "the user's own message";
      else if (message) result.event = { event: 'message', data: message };
      else result.skipped = 'no message text';
      break;
    }
    case 'conversation.state_changed': {
      const state = firstString(data, STATE_KEYS) ?? firstString(body, BODY_STATE_KEYS);
      if (state) result.event = { event: 'state', data: { state: toConversationState(state) } };
      break;
    }
    case 'conversation.archived':
      result.event = { event: 'archived', data: {} };
      break;
    case 'user.variables.created':
    case 'user.variables.updated': {
      // The service holds variables the team sets too (a risk score, an internal note): only those
      // the browser may know reach the stream; the rest are acknowledged and left out.
      const known = browserKnown(data, browserVariables);
      if (known) result.event = { event: 'variables', data: known };
      break;
    }
  }
  return result;
}

/**
 * The service names only `escalated` and an archived condition (service-interface.md, states);
 * words that plainly mean the conversation ended count as archived, anything else as active.
 */
export function toConversationState(word: string): ConversationState {
  const lower = word.trim().toLowerCase();
  if (lower === 'escalated') return 'escalated';
  return /archived|closed|ended|resolved/.test(lower) ? 'archived' : 'active';
}

const KNOWN_KINDS = new Set([
  'message.added',
  'conversation.created',
  'conversation.state_changed',
  'conversation.archived',
  'user.variables.created',
  'user.variables.updated',
]);

// Where the service may put each field, in order of preference. Constants, not literals at the
// call: a literal array is a new array on every call, and these run for every webhook.
const TEXT_KEYS = ['message', 'text', 'content', 'body'];
const ROLE_KEYS = ['hbo', 'role', 'sender', 'from'];
const OPERATOR_NAME_KEYS = ['username', 'operatorName', 'operator_name', 'name'];
const STATE_KEYS = ['state', 'status', 'newState', 'new_state'];
const BODY_STATE_KEYS = ['state'];

// No prototype: a role named "constructor" is unknown (a bot's), not Object's.
const ROLES: Record<string, Role> = Object.assign(Object.create(null) as Record<string, Role>, {
  bot: 'bot', agent: 'bot', assistant: 'bot', ai: 'bot', user: 'user', operator: 'operator', human: 'operator',
});

/**
 * One message in any of the shapes the service may use (webhook `data` or a history item):
 * `id|messageId`, `message|text|content`, `hbo|role|sender`, `createdAt|created_at|timestamp`.
 */
export function toMessage(item: Record<string, unknown>, fallbackAt?: string, fallbackId?: string, authors?: AuthorBook): Message | undefined {
  const rawId = item.messageId ?? item.id ?? item.message_id ?? fallbackId;
  // A rich element may come as JSON text or as the object itself.
  const text = firstString(item, TEXT_KEYS) ?? richText(item.message) ?? richText(item.content);
  if ((typeof rawId !== 'string' && typeof rawId !== 'number') || text === undefined) return undefined;
  const roleName = firstString(item, ROLE_KEYS)?.toLowerCase() ?? 'bot';
  const role = ROLES[roleName] ?? 'bot';
  const parsed = parseMessageText(text);
  const at = toIso(item.createdAt ?? item.created_at ?? item.timestamp) ?? fallbackAt;
  if (role !== 'operator' && parsed.text !== undefined && parsed.badge === undefined && at) {
    // The common message (a bot's text) as one literal: its fields then live in the object itself,
    // not in a second array that properties added one by one would need. Every stored message
    // outlives a young-generation GC, which copies both (docs/benchmarks.md).
    return { id: String(rawId), role, text: parsed.text, createdAt: at, author: authorOf(role, undefined, authors) };
  }
  const message: Message = { id: String(rawId), role };
  if (parsed.text !== undefined) message.text = parsed.text;
  if (parsed.badge !== undefined) message.badge = parsed.badge;
  if (at) message.createdAt = at;
  let username: string | undefined;
  if (role === 'operator') {
    username = firstString(item, OPERATOR_NAME_KEYS)?.slice(0, 100);
    if (username) message.operatorName = username;
  }
  message.author = authorOf(role, username, authors);
  if (role === 'operator' && message.author.name) message.operatorName = message.author.name;
  return message;
}

/** Unwraps a history page: a bare array, or `{messages|data|items|results}` (one level of nesting tolerated). */
export function unwrapList(body: unknown): Record<string, unknown>[] {
  let list: unknown = body;
  for (let depth = 0; depth < 2 && isRecord(list); depth++) {
    const r: Record<string, unknown> = list;
    list = r.messages ?? r.data ?? r.items ?? r.results;
  }
  return Array.isArray(list) ? list.filter(isRecord) : [];
}

/** Epoch seconds, epoch milliseconds or a date string → ISO 8601; undefined when unusable. */
export function toIso(value: unknown): string | undefined {
  let ms: number | undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) ms = value < 1e11 ? value * 1000 : value;
  else if (typeof value === 'string' && value.trim() !== '') {
    ms = /^\d+$/.test(value.trim()) ? toMs(Number(value)) : Date.parse(value);
  }
  if (ms === undefined || !Number.isFinite(ms)) return undefined;
  return isoString(ms);
}

/** Year 10000: from there on `toISOString` writes six-digit years. */
const YEAR_10000_MS = 253_402_300_800_000;
let cachedSecond = -1;
let cachedPrefix = '';

/**
 * `new Date(ms).toISOString()`, with the part up to the second kept from the last call: webhooks
 * come stamped with nearly the same time, and the Date round trip was the costliest step of
 * normalising one (docs/benchmarks.md). Anything before 1970 or after 9999 takes the Date path.
 */
function isoString(ms: number): string | undefined {
  const t = Math.trunc(ms); // as Date does
  if (!(t >= 0 && t < YEAR_10000_MS)) {
    const d = new Date(t);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  }
  const second = Math.floor(t / 1000);
  if (second !== cachedSecond) {
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 20); // "2026-11-23T11:30:05."
    cachedSecond = second;
  }
  return cachedPrefix + MILLIS_SUFFIX[t - second * 1000]!;
}

/**
 * "000Z" to "999Z", made once: the time is then one join of two strings the event keeps, not a
 * chain of four pieces, and every stored event holds it (fewer objects for the GC to copy).
 */
const MILLIS_SUFFIX = Array.from({ length: 1000 }, (_, ms) => `${String(ms).padStart(3, '0')}Z`);

function toMs(n: number): number {
  return n < 1e11 ? n * 1000 : n;
}

/** A rich element given as an object or array, as JSON text; undefined for anything else. */
function richText(value: unknown): string | undefined {
  return isRecord(value) || Array.isArray(value) ? JSON.stringify(value) : undefined;
}

function firstString(r: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = r[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return undefined;
}

/** The part of a variables event the browser may see: `{name, value}` of an allowed name, or the allowed keys of a flat object. */
function browserKnown(data: Record<string, unknown>, allowed: readonly string[]): Record<string, unknown> | undefined {
  if (typeof data.name === 'string') return allowed.includes(data.name) ? { name: data.name, value: data.value } : undefined;
  const known = Object.fromEntries(Object.entries(data).filter(([name]) => allowed.includes(name)));
  return Object.keys(known).length ? known : undefined;
}
