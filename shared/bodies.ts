// Request bodies of the widget-facing routes as valibot schemas: each gives the body's type, its
// checks and, per check, the error code and message (docs/api.md). The BFF applies them through
// Hono's validator middleware (bff/src/lib/body.ts); the demo simulator uses the same fields.
import * as v from 'valibot';
import { hasDottedDomain } from './email.js';
import type { ErrorCode } from './errors.js';
import { FREE_TEXT_RULE, isSafeLine, isSafeText } from './free-text.js';
import { isRecord } from './records.js';
import { FEEDBACK_COMMENT_MAX_LENGTH, PROACTIVE_MAX_LENGTH, TEXT_MAX_LENGTH } from './types.js';

/** A check's message carrying its error code: `code|message` (split again by `bodyProblem`). */
export function coded(code: ErrorCode, message: string): string {
  return `${code}|${message}`;
}

/** The code and message of a failed body check: `invalid_request` unless the check names another. */
export function bodyProblem(issue: { message: string }): { code: ErrorCode; message: string } {
  const bar = /^([a-z_]+)\|/.exec(issue.message);
  return bar ? { code: bar[1] as ErrorCode, message: issue.message.slice(bar[0].length) } : { code: 'invalid_request', message: issue.message };
}

/** A field that may be left out; its own checks decide what is allowed. */
const anything = () => v.optional(v.unknown());
/** A field that must be sent; a missing one gets the field's own message for an absent value (see `checkBody`). */
const needed = () => v.unknown();
const isString = (x: unknown): x is string => typeof x === 'string';

/**
 * The chat text rule (`text_invalid`): a string of 1 to 4000 characters after trimming, with line
 * breaks as `\n` (browsers send multipart text fields with CRLF, so the same message would
 * otherwise read differently from a JSON send and on the stream).
 */
export const Text = v.pipe(
  needed(),
  v.check(isString, coded('text_invalid', '"text" must be a string')),
  v.transform((value) => (value as string).replace(/\r\n?/g, '\n').trim()),
  v.minLength(1, coded('text_invalid', '"text" must not be empty')),
  v.maxLength(TEXT_MAX_LENGTH, coded('text_invalid', `"text" must be at most ${TEXT_MAX_LENGTH} characters`)),
);

/**
 * An optional short string (names, client ids): absent, null or '' is none; else trimmed, bounded,
 * maybe a pattern, which `rule` then puts in words for the error.
 */
export function optionalString(key: string, max: number, pattern?: RegExp, rule?: string) {
  const message = rule ? `"${key}" must be ${rule}` : `"${key}" must be a string of at most ${max} characters`;
  return v.pipe(
    anything(),
    v.check((x) => x === undefined || x === null || x === '' || (isString(x) && x.trim().length <= max && (!pattern || pattern.test(x.trim()))), message),
    v.transform((x) => (isString(x) && x !== '' ? x.trim() : undefined)),
  );
}

export const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ClientId = optionalString('clientId', 64, CLIENT_ID, '1 to 64 letters, digits, _ or -');

/**
 * A secret of the browser's, the same on every try of one start: a repeat whose first answer was
 * lost gets the conversation that try made (docs/api.md "POST /api/session").
 */
const StartKey = optionalString('startKey', 64, /^[A-Za-z0-9_-]{16,64}$/, '16 to 64 letters, digits, _ or -');

/** An optional name (a profile name): `optionalString`, held to the free-text rule for one line (shared/free-text.ts). */
function optionalName(key: string, max: number) {
  return v.pipe(optionalString(key, max), v.check((x) => x === undefined || isSafeLine(x), `"${key}" ${FREE_TEXT_RULE}`));
}

/** A BCP 47 language tag as browsers write them (`de`, `pt-BR`, `zh-Hant-TW`), at most 35 characters. */
const LOCALE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,4}$/;
/** The visitor's language, given to the agent when a conversation starts (`LOCALE_VARIABLE`): absent, null or '' is none. */
const Locale = v.pipe(
  anything(),
  v.check((x) => x === undefined || x === null || x === '' || (isString(x) && x.length <= 35 && LOCALE.test(x)), '"locale" must be a language tag like de or pt-BR'),
  v.transform((x) => (isString(x) && x !== '' ? x : undefined)),
);

/** POST /api/messages. */
export const MessageBody = v.object({ text: Text, clientId: ClientId });

/** `text` where it may be left out (a signed-in resume): absent is none, else the chat text rule. */
export const OptionalText = v.pipe(
  anything(),
  v.check((x) => x === undefined || isString(x), coded('text_invalid', '"text" must be a string')),
  v.transform((x) => (x === undefined ? undefined : (x as string).replace(/\r\n?/g, '\n').trim())),
  v.check((x) => x === undefined || x.length > 0, coded('text_invalid', '"text" must not be empty')),
  v.check((x) => x === undefined || x.length <= TEXT_MAX_LENGTH, coded('text_invalid', `"text" must be at most ${TEXT_MAX_LENGTH} characters`)),
);

/** What an anonymous session without `text` is told (the rule of `Text` for a missing value). */
export const TEXT_MISSING = coded('text_invalid', '"text" must be a string');

/**
 * POST /api/session: with `identityToken` a signed-in session (resumed with `text` or not), else
 * an anonymous one, which needs `text` (TEXT_MISSING).
 */
/**
 * The page the conversation started on (docs/api.md "Continuity by email"): an absolute http(s)
 * URL of at most 2048 characters, kept without its fragment. Whether its origin may use the chat
 * is the BFF's check (ALLOWED_ORIGINS), after this one.
 */
const PageUrl = v.pipe(
  anything(),
  v.check((x) => x === undefined || (isString(x) && x.length <= 2048 && pageUrlOf(x) !== undefined), '"pageUrl" must be an http or https URL of at most 2048 characters'),
  v.transform((x) => (x === undefined ? undefined : pageUrlOf(x as string))),
);

/** `raw` as an absolute http(s) URL without its fragment, or undefined. */
export function pageUrlOf(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') return undefined;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

export const SessionBody = v.object({
  identityToken: anything(),
  text: OptionalText,
  profileName: optionalName('profileName', 100),
  clientId: ClientId,
  context: v.pipe(optionalString('context', PROACTIVE_MAX_LENGTH), v.check((x) => x === undefined || isSafeText(x), `"context" ${FREE_TEXT_RULE}`)),
  locale: Locale,
  startKey: StartKey,
  pageUrl: PageUrl,
  /** "Talk to a person" before the first message: the conversation goes to a person as it starts. */
  escalate: v.pipe(anything(), v.check((x) => x === undefined || typeof x === 'boolean', '"escalate" must be true or false'), v.transform((x) => x as boolean | undefined)),
});

/** POST /api/token. */
export const TokenBody = v.object({
  refreshToken: v.pipe(
    needed(),
    v.check(isString, '"refreshToken" must be a string'),
    v.check((x) => !isString(x) || x.length <= 4096, '"refreshToken" must be at most 4096 characters'),
    v.transform((x) => x as string),
  ),
});

/** POST /api/identify. */
export const IdentifyBody = v.object({ identityToken: anything() });

/** POST /api/conversations (a signed-in user's new conversation). */
export const NewConversationBody = v.object({ identityToken: anything(), text: Text, clientId: ClientId, startKey: StartKey, locale: Locale, pageUrl: PageUrl });

/** POST /api/resume: the token of an email's continue link. */
export const ResumeBody = v.object({
  token: v.pipe(
    needed(),
    v.check((x) => isString(x) && x.length > 0 && x.length <= 2048, coded('invalid_token', '"token" must be the token of a continue link')),
    v.transform((x) => x as string),
  ),
});

const MESSAGE_ID = /^[A-Za-z0-9_:.-]{1,128}$/;

const NOT_AN_ADDRESS = coded('contact_invalid', '"email" must be an email address');

/** POST /api/contact: an address the team may answer at, a name, and consent when CONSENT_TEXT asks. */
export const ContactBody = v.object({
  email: v.pipe(
    needed(),
    v.check(isString, NOT_AN_ADDRESS),
    v.transform((x) => (x as string).trim()),
    v.maxLength(254, NOT_AN_ADDRESS),
    // What the form's <input type="email"> accepts (the HTML standard's rule), with a dot in the domain.
    v.rfcEmail(NOT_AN_ADDRESS),
    v.check(hasDottedDomain, NOT_AN_ADDRESS),
  ),
  name: v.pipe(
    anything(),
    v.check((x) => x === undefined || x === null || (isString(x) && x.trim().length <= 100), coded('contact_invalid', '"name" must be text of at most 100 characters')),
    v.transform((x) => (isString(x) && x.trim() !== '' ? x.trim() : undefined)),
    v.check((x) => x === undefined || isSafeLine(x), coded('contact_invalid', `"name" ${FREE_TEXT_RULE}`)),
  ),
  consent: v.pipe(anything(), v.check((x) => x === undefined || typeof x === 'boolean', coded('contact_invalid', '"consent" must be true or false'))),
  /** The visitor's language: which of a per-language CONSENT_TEXT they read and agreed to. */
  locale: Locale,
});

/** POST /api/csat: a rating 1–5 of the whole conversation, with an optional comment. */
export const CsatBody = v.object({
  score: v.pipe(needed(), v.check((x) => Number.isInteger(x) && (x as number) >= 1 && (x as number) <= 5, coded('csat_invalid', '"score" must be a whole number from 1 to 5')), v.transform((x) => x as number)),
  comment: v.pipe(
    anything(),
    v.check((x) => x === undefined || x === null || isString(x), coded('csat_invalid', '"comment" must be a string')),
    v.transform((x) => (isString(x) ? x.replace(/\r\n?/g, '\n').trim() : '')),
    v.check(isSafeText, coded('csat_invalid', `"comment" ${FREE_TEXT_RULE}`)),
    v.maxLength(FEEDBACK_COMMENT_MAX_LENGTH, coded('comment_too_long', `"comment" must be at most ${FEEDBACK_COMMENT_MAX_LENGTH} characters`)),
    v.transform((x) => (x === '' ? undefined : x)),
  ),
});

/** POST /api/feedback: a vote on an answer, with an optional comment. */
export const FeedbackBody = v.object({
  messageId: v.pipe(
    needed(),
    v.check(isString, '"messageId" must be a string'),
    v.check((x) => MESSAGE_ID.test(x as string), coded('unknown_message', '"messageId" must be the id of an answer in this conversation')),
    v.transform((x) => x as string),
  ),
  value: v.pipe(needed(), v.check((x) => x === 'up' || x === 'down', coded('feedback_invalid', '"value" must be "up" or "down"')), v.transform((x) => x as 'up' | 'down')),
  comment: v.pipe(
    anything(),
    v.check((x) => x === undefined || x === null || isString(x), coded('feedback_invalid', '"comment" must be a string')),
    v.transform((x) => (isString(x) ? x.replace(/\r\n?/g, '\n').trim() : '')),
    v.check(isSafeText, coded('feedback_invalid', `"comment" ${FREE_TEXT_RULE}`)),
    v.maxLength(FEEDBACK_COMMENT_MAX_LENGTH, coded('comment_too_long', `"comment" must be at most ${FEEDBACK_COMMENT_MAX_LENGTH} characters`)),
    v.transform((x) => (x === '' ? undefined : x)),
  ),
});

/** A user variable's value (PATCH /api/user, identity tokens): a string up to 1000 characters (the free-text rule), a finite number or a boolean. */
export function isUserVariableValue(x: unknown): x is string | number | boolean {
  return (isString(x) && x.length <= 1000 && isSafeText(x)) || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x));
}

/** The first name of `variables`, in order, that is not in `allowed` or has a bad value. */
export function userVariableProblem(variables: Record<string, unknown>, allowed: readonly string[]): { kind: 'not_allowed' | 'bad_value'; name: string } | undefined {
  for (const [name, value] of Object.entries(variables)) {
    if (!allowed.includes(name)) return { kind: 'not_allowed', name };
    if (!isUserVariableValue(value)) return { kind: 'bad_value', name };
  }
  return undefined;
}

/** PATCH /api/user: `{name: value, …}`, at least one, names from `allowed` (USER_VARIABLES, else 403 variable_not_allowed). */
export function UserVariablesBody(allowed: readonly string[]) {
  return v.pipe(
    // Not v.record: it leaves out "__proto__" and "constructor" keys, so such a name would read as no variable, not as one not allowed.
    v.custom<Record<string, unknown>>(isRecord, 'Body must be a JSON object'),
    v.check((x) => Object.keys(x).length > 0, 'Send at least one variable'),
    v.check(
      (x) => userVariableProblem(x, allowed) === undefined,
      (issue) => {
        const { kind, name } = userVariableProblem(issue.input as Record<string, unknown>, allowed)!;
        return kind === 'not_allowed'
          ? coded('variable_not_allowed', `Variable "${name}" may not be set from the browser`)
          : `Variable "${name}" must be a string (up to 1000 characters, without control characters or direction overrides), a number or a boolean`;
      },
    ),
    v.transform((x) => x as Record<string, string | number | boolean>),
  );
}

const MAX_VARIABLES = 100;
const MAX_STRING_VALUE = 10_000;
// Printable: no control, format (direction overrides, zero widths) or unassigned code points, not only spaces; 100 code points.
const VARIABLE_NAME = /^(?!\s*$)[^\p{C}]{1,100}$/u;
const isVariableValue = (x: unknown) => (isString(x) && x.length <= MAX_STRING_VALUE && isSafeText(x)) || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x));

/** A flow's inputs: string, number (finite) or boolean values under plain names (the seed's `data`); none is `{}`. */
export const FlowVariables = v.pipe(
  anything(),
  v.check((x) => x === undefined || x === null || isRecord(x), '"variables" must be an object of names to strings, numbers or booleans'),
  // fromEntries defines own properties, so a "__proto__" name stays a plain key.
  v.transform((x) => Object.entries((x ?? {}) as Record<string, unknown>)),
  v.check((entries) => entries.length <= MAX_VARIABLES, `At most ${MAX_VARIABLES} variables may be sent`),
  v.check((entries) => entries.every(([name]) => VARIABLE_NAME.test(name)), 'Variable names must be 1 to 100 printable characters'),
  v.check(
    (entries) => entries.every(([, value]) => isVariableValue(value)),
    (issue) => {
      const [name] = (issue.input as Array<[string, unknown]>).find(([, value]) => !isVariableValue(value))!;
      return `Variable "${name.slice(0, 40)}" must be a string (up to ${MAX_STRING_VALUE} characters, without control characters or direction overrides), a number or a boolean`;
    },
  ),
  v.transform((entries) => Object.fromEntries(entries) as Record<string, string | number | boolean>),
);

/** POST /api/flows/{name} as JSON: `{"variables": {...}}` and nothing else. */
export const FlowBody = v.strictObject(
  { variables: FlowVariables },
  (issue) => `Unknown field "${String(issue.path?.[0]?.key ?? '')}"; send {"variables": {...}}`,
);

/** A multipart body's text part that the route does not take. */
const unknownPart = (issue: v.BaseIssue<unknown>) => `Unknown form field "${String(issue.path?.[0]?.key ?? '').slice(0, 40)}"`;

/** POST /api/upload's text parts (its `files` parts are read as bytes): optional `text` by the chat text rule, `clientId`. */
export const UploadFields = v.strictObject({ text: OptionalText, clientId: ClientId }, unknownPart);

/** POST /api/flows/{name} as multipart: its one text part, `variables`, is JSON text of flow variables. */
export const FlowFields = v.strictObject(
  {
    variables: v.pipe(
      anything(),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        if (dataset.value === undefined) return undefined;
        try {
          return JSON.parse(String(dataset.value)) as unknown;
        } catch {
          addIssue({ message: coded('invalid_json', '"variables" must be a JSON object') });
          return NEVER;
        }
      }),
      FlowVariables,
    ),
  },
  unknownPart,
);
