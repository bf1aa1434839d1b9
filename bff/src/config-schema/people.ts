// Schema entries: the people behind the chat: who answers, support hours, starters (docs/api.md "People").
import { readFileSync } from 'node:fs';
import { parseProfiles, safeUrl, type Profile } from '../people/authors.js';
import { parseSupportHours, type SupportHours } from '../people/support-hours.js';
import type { Localized, LocalizedText } from '../../../shared/types.js';
import type { Parser } from '../env-parser.js';
import { SETTING_VARIABLE_NAME } from '../lib/variables.js';
import { refuseVerifiedNames, setting } from './setting.js';

const group = 'widget' as const;

export const PEOPLE = {
  operatorProfiles: setting({
    env: 'OPERATOR_PROFILES', group, default: 'unset: operators are shown by their service username',
    doc: 'operators\' display names and pictures: a JSON object of service username or email to `{"name","avatarUrl"}` (https or site-relative), inline or as the path of a JSON file',
    read: (p) => readProfiles(p),
  }),
  widgetBotName: setting({
    env: 'WIDGET_BOT_NAME', group, doc: 'the name shown beside the assistant\'s messages (at most 100 characters)', default: "unset: the widget's own string",
    read: (p) => p.text('WIDGET_BOT_NAME', 100), public: (name) => (name === undefined ? {} : { bot: { name } }),
  }),
  widgetBotAvatar: setting({
    env: 'WIDGET_BOT_AVATAR', group, doc: 'the assistant\'s picture (https or site-relative URL)', default: 'unset: initials',
    read: (p) => readPicture(p, 'WIDGET_BOT_AVATAR'), public: (avatarUrl) => (avatarUrl === undefined ? {} : { bot: { avatarUrl } }),
  }),
  supportHours: setting({
    env: 'SUPPORT_HOURS', group, default: 'unset: always open',
    doc: 'when a person can answer, like `Mon-Fri 09:00-17:30; Sat 10:00-14:00`, in `SUPPORT_TIMEZONE`; outside them the widget says when the team is back and asks for an email address',
    read: (p) => readHours(p),
  }),
  supportTimezone: setting({
    env: 'SUPPORT_TIMEZONE', group, doc: 'the IANA time zone of `SUPPORT_HOURS`, like `Europe/Berlin`', default: '`UTC`', example: 'UTC',
    read: (p) => p.optional('SUPPORT_TIMEZONE') ?? 'UTC',
  }),
  supportReplyTime: setting({
    env: 'SUPPORT_REPLY_TIME', group, doc: 'how soon a person usually answers while open: `minutes`, `hour` (or `hours`, the same) or `day`', default: '`minutes`', example: 'minutes',
    // `hours` is how the specification writes it; the widget knows one name per meaning.
    read: (p) => {
      const time = p.oneOf('SUPPORT_REPLY_TIME', ['minutes', 'hour', 'hours', 'day'] as const, 'minutes');
      return time === 'hours' ? 'hour' : time;
    },
  }),
  escalationOffer: setting({
    env: 'ESCALATION_OFFER', group, doc: 'when the widget offers "Talk to a person": `always`, `after_first_message` or `never`', default: '`always`', example: 'always',
    read: (p) => p.oneOf('ESCALATION_OFFER', ['always', 'after_first_message', 'never'] as const, 'always'),
  }),
  closedLauncher: setting({
    env: 'CLOSED_LAUNCHER', group, doc: '`hide`: outside `SUPPORT_HOURS` the launcher is hidden from visitors with no conversation (the API still opens the chat), only on pages whose script tag has `data-launcher="hours"` or that call `init({launcher: \'hours\'})` ([embedding.md](embedding.md#the-javascript-api-and-the-element)); the BFF logs this at start; `show`', default: '`show`', example: 'show',
    read: (p) => p.oneOf('CLOSED_LAUNCHER', ['show', 'hide'] as const, 'show'),
  }),
  csat: setting({
    env: 'CSAT', group, doc: 'when the widget asks "How did we do?" after a conversation is archived: `always`, `after_operator` (only where an operator wrote) or `off`', default: '`always`', example: 'always',
    read: (p) => p.oneOf('CSAT', ['always', 'after_operator', 'off'] as const, 'always'), public: (csat) => ({ csat }),
  }),
  contactVariables: setting({
    env: 'CONTACT_VARIABLES', group, doc: 'the user variable names `POST /api/contact` stores the address and the name as, `email,name` (not `verifiedEmail` or `verifiedUserId`)', default: '`email,name`', example: 'email,name',
    read: (p) => readContactNames(p),
  }),
  consentText: setting({
    env: 'CONSENT_TEXT', group, default: 'unset: no checkbox',
    doc: 'a consent checkbox beside the contact form with this text (at most 500 characters), plain or JSON by two-letter language like `WIDGET_TITLE` (a language not listed reads the English entry, else the first); `POST /api/contact` then needs `consent: true` and stores the time and the text the visitor read',
    read: (p) => readConsent(p), public: (consentText) => (consentText === undefined ? {} : { consentText }),
  }),
  prechatFields: setting({
    env: 'PRECHAT_FIELDS', group, doc: '`name`, `email` or `name,email`: a form before an anonymous visitor\'s first message', default: 'unset: no form',
    read: (p) => readPrechat(p),
  }),
  prechatRequired: setting({
    env: 'PRECHAT_REQUIRED', group, doc: '`true`: the pre-chat form cannot be skipped', default: '`false`', example: 'false',
    read: (p) => p.bool('PRECHAT_REQUIRED', false),
  }),
  widgetStarters: setting({
    env: 'WIDGET_STARTERS', group, default: 'none',
    doc: 'questions offered as buttons in an empty conversation, separated by `|` (at most 6, 100 characters each); or JSON by two-letter language of such lists (`{"en":"Where is my order? | Sizes?","de":"Wo ist meine Bestellung? | Größen?"}`), of which the widget takes its language\'s, like `WIDGET_TITLE`',
    read: (p) => readStarters(p), public: (starters) => (Array.isArray(starters) ? (starters.length ? { starters: [...starters] } : {}) : { starters }),
  }),
};

function readProfiles(p: Parser): Readonly<Record<string, Profile>> {
  const raw = p.optional('OPERATOR_PROFILES');
  if (raw === undefined) return {};
  try {
    return parseProfiles(raw.startsWith('{') ? raw : readFileSync(raw, 'utf8'));
  } catch (err) {
    p.report(`OPERATOR_PROFILES ${err instanceof SyntaxError ? 'is not valid JSON' : (err as Error).message}`);
    return {};
  }
}

function readPicture(p: Parser, name: string): string | undefined {
  const raw = p.optional(name);
  if (raw === undefined || safeUrl(raw)) return raw;
  p.report(`${name} must be an https or site-relative URL`);
  return undefined;
}

/** Read with the zone beside it: an unknown zone or unreadable hours stop the start, one line each. */
function readHours(p: Parser): SupportHours | undefined {
  const raw = p.optional('SUPPORT_HOURS');
  const zone = p.optional('SUPPORT_TIMEZONE') ?? 'UTC';
  if (raw === undefined) {
    if (zone !== 'UTC') parseOrReport(p, 'Mon 00:00-01:00', zone); // the zone is still checked
    return undefined;
  }
  return parseOrReport(p, raw, zone);
}

function parseOrReport(p: Parser, raw: string, zone: string): SupportHours | undefined {
  try {
    return parseSupportHours(raw, zone);
  } catch (err) {
    p.report(`SUPPORT_HOURS/SUPPORT_TIMEZONE: ${(err as Error).message}`);
    return undefined;
  }
}

/** One list for everyone, or one per language (read like `WIDGET_TITLE`), each list checked on its own. */
function readStarters(p: Parser): Localized<string[]> {
  const text = p.localizedText('WIDGET_STARTERS');
  if (typeof text !== 'object') return text === undefined ? [] : splitStarters(p, text, '');
  return Object.fromEntries(Object.entries(text).map(([lang, list]) => [lang, splitStarters(p, list, ` (${lang})`)]));
}

function splitStarters(p: Parser, raw: string, which: string): string[] {
  const starters = raw.split('|').map((s) => s.trim()).filter(Boolean);
  if (starters.length > 6 || starters.some((s) => s.length > 100)) p.report(`WIDGET_STARTERS${which} takes at most 6 questions of 100 characters each, separated by |`);
  return starters.slice(0, 6).map((s) => s.slice(0, 100));
}

/** Plain or per language, like WIDGET_TITLE; every language's text at most 500 characters. */
function readConsent(p: Parser): LocalizedText | undefined {
  const text = p.localizedText('CONSENT_TEXT');
  const texts = typeof text === 'object' ? Object.entries(text) : text === undefined ? [] : [['', text] as const];
  const long = texts.filter(([, t]) => [...t].length > 500).map(([lang]) => lang);
  if (long.length === 0) return text;
  p.report(`CONSENT_TEXT${long[0] ? ` (${long.join(', ')})` : ''} may be at most 500 characters`);
  return undefined;
}

function readContactNames(p: Parser): { email: string; name: string } {
  const [email = 'email', name = 'name', ...rest] = p.list('CONTACT_VARIABLES', ['email', 'name']);
  if (rest.length > 0 || ![email, name].every((n) => SETTING_VARIABLE_NAME.test(n))) p.report('CONTACT_VARIABLES must be two variable names, like email,name');
  else refuseVerifiedNames(p, 'CONTACT_VARIABLES', [email, name]);
  return { email, name };
}

function readPrechat(p: Parser): Array<'name' | 'email'> {
  const fields = p.list('PRECHAT_FIELDS', []);
  if (fields.some((f) => f !== 'name' && f !== 'email')) p.report('PRECHAT_FIELDS may list only name and email');
  return fields.filter((f): f is 'name' | 'email' => f === 'name' || f === 'email');
}
