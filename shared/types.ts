/**
 * The contract between the widget and the BFF: messages, badges, stream events
 * and public settings. No DOM or Node imports here.
 */
import type { Badge } from './badge-kinds.js';

/** Who wrote a message: the AI agent, the end user, or a human operator. */
export type Role = 'bot' | 'user' | 'operator';

/** One chat message as the widget sees it (docs/api.md, `Message`). */
export interface Message {
  /** Upstream `messageId` as a string (or a BFF-assigned id for user/model messages). */
  id: string;
  role: Role;
  text?: string;
  badge?: Badge;
  /** ISO 8601 time, when known. */
  createdAt?: string;
  operatorName?: string;
  /** Who wrote it, as the visitor sees it (docs/api.md "Authors"). */
  author?: Author;
  /** Echo of the id the widget chose for an optimistic user message. */
  clientId?: string;
  /** Model mode: the visitor stopped this reply (`POST /api/stop`); `text` is what was written until then. */
  stopped?: boolean;
  /** The visitor's latest vote on this answer (history pages only; the stream sends `feedback` events). */
  feedback?: FeedbackValue;
}

/** A message's author: the bot, an operator (display name and picture from OPERATOR_PROFILES) or the visitor. */
export interface Author {
  kind: 'bot' | 'operator' | 'user';
  name?: string;
  avatarUrl?: string;
}

/** Whether a person can answer now (SUPPORT_HOURS), as GET /api/config says it. */
export interface HandoffConfig {
  /** ESCALATION_OFFER: when the widget offers "Talk to a person". */
  offer: 'always' | 'after_first_message' | 'never';
  open: boolean;
  /** ISO 8601 instant of the next opening, when closed and known. */
  opensAt?: string;
  /** SUPPORT_REPLY_TIME, e.g. `minutes`. */
  replyTime: string;
  /** CLOSED_LAUNCHER: `hide` keeps the launcher from visitors without a conversation while closed. */
  launcher: 'show' | 'hide';
}

/** A visitor's vote on an answer (docs/api.md "Engagement"). */
export type FeedbackValue = 'up' | 'down';

/** Longest feedback comment, in characters. */
export const FEEDBACK_COMMENT_MAX_LENGTH = 1000;

/** Longest proactive message (`Parley('show', text)`) sent as `context` with a conversation's first message. */
export const PROACTIVE_MAX_LENGTH = 1000;

/** A button: `postback` sends `value` as the user's message; `link` opens `value` (http, https or mailto). */
export interface BadgeButton {
  label: string;
  action: 'postback' | 'link';
  value: string;
}

export interface BadgeCard {
  title: string;
  subtitle?: string;
  imageUrl?: string;
  url?: string;
  buttons: BadgeButton[];
}

export interface BadgeListItem {
  title: string;
  subtitle?: string;
  imageUrl?: string;
  url?: string;
  buttons?: BadgeButton[];
}

/** The badge kinds (`Badge`) and what is known of each live in badge-kinds.ts, one entry a kind. */
export type { Badge, BadgeOf, BadgeType } from './badge-kinds.js';

/**
 * A conversation's state as the widget sees it. The BFF maps the service's own words (not all of
 * them documented) to these three, so the widget never reads the upstream's vocabulary.
 */
export type ConversationState = 'active' | 'escalated' | 'archived';

/** Data of each event on the stream (docs/api.md "Event stream"), by event name. */
export interface StreamEventMap {
  message: Message;
  message_delta: { id: string; delta: string };
  state: { state: ConversationState };
  archived: Record<string, never>;
  variables: { name?: string; value?: unknown; [key: string]: unknown };
  /** `replyTo`: in model mode, the user message (`u_…`) whose reply failed. */
  error: { code: string; message: string; replyTo?: string };
  /** The latest vote on an answer wins; `comment` only with a thumbs down. */
  feedback: { messageId: string; value: FeedbackValue; comment?: string };
  /** The visitor's rating of the whole conversation (docs/api.md "People"), once per conversation. */
  csat: { score: number; comment?: string };
  /** Contact details the visitor left (POST /api/contact); `consentAt` when CONSENT_TEXT asked for consent. */
  contact: { email: string; name?: string; consentAt?: string };
  /**
   * Events this client had not received may be gone (the log started over after a restart, or
   * retention dropped them): reload the newest history page. Sent without an id.
   */
  reset: Record<string, never>;
}

export type StreamEventName = keyof StreamEventMap;

/** An event before it is stored: a name and its data. */
export type StreamEvent = {
  [K in StreamEventName]: { event: K; data: StreamEventMap[K] };
}[StreamEventName];

/** An event as stored in a conversation's log: `id` is the per-conversation sequence (only grows). */
export type StoredEvent = StreamEvent & { id: number; ts: number };

// Every event name once: `satisfies` fails to compile when a name of `StreamEventMap` is missing
// here or one is here that the map does not have, so the stream client listens for exactly these.
const STREAM_EVENTS = {
  message: true,
  message_delta: true,
  state: true,
  archived: true,
  variables: true,
  error: true,
  feedback: true,
  csat: true,
  contact: true,
  reset: true,
} as const satisfies Record<StreamEventName, true>;

/** The names of the stream's events (docs/api.md "Event stream"), from one typed object. */
export const STREAM_EVENT_NAMES = Object.keys(STREAM_EVENTS) as StreamEventName[];

/**
 * What an operator sets for every visitor (`WIDGET_TITLE`, `WIDGET_GREETING`, `WIDGET_STARTERS`): one
 * value, or one per two-letter language (`{"en": "Help", "de": "Hilfe"}`); the widget picks its language's.
 */
export type Localized<T extends string | string[]> = T | Record<string, T>;
export type LocalizedText = Localized<string>;

/** Public widget settings from `GET /api/config`. */
export interface PublicConfig {
  mode: 'agent' | 'model';
  features: { escalation: boolean; upload: boolean; flows: string[] };
  /** Signed-in users (docs/api.md "Signed-in users"): `off`, `optional` (identity tokens accepted) or `required`. */
  identity: 'off' | 'optional' | 'required';
  /** Set only when the operator chose one (WIDGET_TITLE); else the widget's strings in the visitor's language. */
  title?: LocalizedText;
  /** Set only when the operator chose one (WIDGET_GREETING), like `title`. */
  greeting?: LocalizedText;
  /** WIDGET_AI_LABEL: the words of the AI mark on the assistant's messages, like `title`; unset, the widget's own ("AI"). */
  aiLabel?: LocalizedText;
  theme: { accent: string; position: 'right' | 'left'; scheme: 'light' | 'dark' | 'auto' };
  /** `uploadTypes`: the media types and extensions an upload may have (`UPLOAD_TYPES`), as an `accept` attribute takes them. */
  limits: { textMaxLength: number; maxUploadBytes: number; maxUploadFiles: number; uploadTypes?: string[] };
  userVariables: string[];
  /** WIDGET_BOT_NAME and WIDGET_BOT_AVATAR. */
  bot?: { name?: string; avatarUrl?: string };
  handoff?: HandoffConfig;
  /** WIDGET_STARTERS: questions offered as buttons in an empty conversation; a list, or one per language like `title`. */
  starters?: Localized<string[]>;
  /** CSAT: when the widget asks for a rating after the conversation is archived. */
  csat?: 'always' | 'after_operator' | 'off';
  /** CONSENT_TEXT: the contact form's consent checkbox, which must be ticked; one text, or one per language like `title`. */
  consentText?: LocalizedText;
  /** PRECHAT_FIELDS and PRECHAT_REQUIRED: the form before an anonymous visitor's first message. */
  prechat?: { fields: Array<'name' | 'email'>; required: boolean };
}

/** Every error body the BFF sends: `{error:{code,message}}`. */
export interface ErrorBody {
  error: { code: string; message: string };
}

/** A signed-in user as the BFF verified them (docs/api.md "Signed-in users"). */
export interface SessionUser {
  id: string;
  name?: string;
}

export interface SessionResponse {
  sessionId: string;
  token: string;
  refreshToken: string;
  expiresAt: string;
  /** Set when the conversation belongs to a signed-in user. */
  user?: SessionUser;
  /** `escalated` when the request asked for a person (`escalate: true`) and the service took it. */
  state?: 'escalated';
}

/**
 * `POST /api/session` with an identity token, no text and no open conversation of the user: a token for
 * the user's own conversations (list, read, continue one, start one), no conversation of its own.
 */
export interface UserTokenResponse {
  token: string;
  expiresAt: string;
  user: SessionUser;
}

/** `POST /api/identify`: `switched` when the answer is the user's existing conversation, not the current one. */
export interface IdentifyResponse extends SessionResponse {
  user: SessionUser;
  switched: boolean;
}

/** One entry of `GET /api/conversations`. */
export interface ConversationSummary {
  sessionId: string;
  title: string;
  state: 'open' | 'escalated' | 'archived';
  updatedAt: string;
  /** The newest message with words (the newest 20 conversations of a list; absent when none could be read). */
  lastMessage?: LastMessage;
}

/** A listed conversation's newest message, as one line (docs/api.md "Signed-in users"). */
export interface LastMessage {
  /** Plain text on one line (Markdown's words without its marks, no HTML; a rich message's summary), at most 160 characters, a cut one ending in "…". */
  text: string;
  /** Who wrote it: the visitor (`user`), the bot or an operator, with the name the conversation shows (never the visitor's). */
  author: { kind: Author['kind']; name?: string };
  /** When it was written (ISO 8601), when known. */
  at?: string;
}

export interface ConversationsList {
  items: ConversationSummary[];
}

export interface TokenResponse {
  token: string;
  refreshToken: string;
  expiresAt: string;
}

export interface MessagesPage {
  items: Message[];
  limit: number;
  offset: number;
  hasMore: boolean;
}

export const TEXT_MAX_LENGTH = 4000;
