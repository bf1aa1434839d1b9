/**
 * The widget's public API, for `window.Parley` and the npm build (`createParley`, `init`).
 * `dist/widget/widget.d.ts` is emitted from this file at build time.
 */
import type { Message, PublicConfig } from '../../shared/types.js';
import type { Strings } from './i18n.js';

export type { Message, PublicConfig, Strings };

/** Everything an integrator can set; each field overrides the BFF's public settings. */
export interface ParleyOptions {
  /** Origin of the BFF. Default: the origin of the script tag (or of the page, for npm users). */
  bff?: string;
  /** `en`, `de`, `fr`, `ar` or `he` (others fall back to English; docs/embedding.md "Languages"). Default: `navigator.language`. */
  locale?: string;
  /** Text direction; default right-to-left for RTL locales. */
  dir?: 'ltr' | 'rtl';
  /** Overrides of single strings, e.g. `{ placeholder: 'Ask us anything' }`. */
  strings?: Partial<Strings>;
  title?: string;
  greeting?: string;
  /** The assistant's name and picture (https, or a path on the BFF's origin); over `WIDGET_BOT_NAME` and `WIDGET_BOT_AVATAR`. */
  bot?: { name?: string; avatarUrl?: string };
  /** Questions offered as buttons in an empty conversation (one click sends it); over `WIDGET_STARTERS`. `[]` shows none. */
  starters?: string[];
  /**
   * A form before an anonymous visitor's first message asking for `fields` (`name`, `email`); with
   * `required` it cannot be skipped. Over `PRECHAT_FIELDS`/`PRECHAT_REQUIRED`; `false` asks nothing.
   */
  prechat?: { fields: Array<'name' | 'email'>; required?: boolean } | false;
  theme?: {
    /** Any CSS color; the page may also set `--parley-accent` (and `--parley-accent-text`). */
    accent?: string;
    position?: 'right' | 'left';
    scheme?: 'light' | 'dark' | 'auto';
    /** Distance in px of the launcher (and the bubble and panel above it) from the page's corner. Default `{ x: 20, y: 20 }`. */
    offset?: { x?: number; y?: number };
    /**
     * Stacking order of the launcher, the bubble and the panel (default 2147483000), so a page's cookie
     * banner or modal can sit above the chat. The page may set `--parley-z-index` instead.
     */
    zIndex?: number;
  };
  /** Sent as `profileName` when the conversation starts (not with identity tokens: then the token's `name` is used). */
  profileName?: string;
  /**
   * A signed-in user's identity token, minted by your backend (docs/signed-in-users.md); or a
   * function returning one, called again whenever the token it gave has expired.
   */
  identityToken?: string | (() => string | Promise<string>);
  /** User variables (only names the BFF allows), sent once a conversation exists. */
  variables?: Record<string, string | number | boolean>;
  /** Open the panel right away. */
  open?: boolean;
  /** Play a short beep (made with Web Audio) when an answer arrives while the chat is closed or the tab hidden. Default false. */
  sound?: boolean;
  /**
   * `false` hides the round launcher button, for pages that open the chat from their own button (`Parley('open')`).
   * `'hours'`: the launcher follows the support hours when the BFF has `CLOSED_LAUNCHER=hide`: outside them it is
   * not shown to a visitor with no conversation (the API still opens the chat). Costs a first visit one request.
   */
  launcher?: boolean | 'hours';
  /** Render inline inside this element instead of floating (what `<parley-chat>` does). */
  container?: HTMLElement;
}

/** Data of each event, by name. */
export interface ParleyEventMap {
  /** The widget is on screen; `unread`: answers not yet seen (e.g. that came before a reload). */
  ready: { unread: number };
  open: undefined;
  close: undefined;
  /** Every message new to this page: the user's own once the BFF confirmed it, and every answer. */
  message: Message;
  unread: { count: number };
  error: { code: string; message: string };
  /** The conversation started (its first message was taken), went to a person, or ended. */
  conversation: { sessionId: string; state: 'started' | 'escalated' | 'archived' };
  /** A person joined the conversation: the first message of an operator (again when another one writes). */
  operator: { name: string };
  /** The visitor rated the conversation (1–5). */
  rating: { score: number };
  /** The visitor left an address for the team; the address itself is never given to the page. */
  contact: Record<string, never>;
  /** A vote on an answer was recorded (`messageId` of the answer). */
  feedback: { messageId: string; vote: 'up' | 'down' };
}

export type ParleyEventName = keyof ParleyEventMap;

/** One widget. No method throws: failures are reported as `error` events. */
export interface ParleyInstance {
  /** Opens the panel; `prefill` is put into the text box (not sent), e.g. from a page's "Ask about this product" button. */
  open(options?: { prefill?: string }): void;
  close(): void;
  toggle(): void;
  /** Sends `text` as the user's message (starting a conversation if there is none). */
  send(text: string): void;
  /**
   * Proactive message: shows `text` in a dismissable bubble beside the launcher. Opening the
   * chat shows it as the first line of the assistant; when the visitor answers, it goes along
   * as context. A dismissed text is not shown again in this browser session.
   */
  show(text: string): void;
  /**
   * After a login: `identityToken` signs the user in (this conversation becomes theirs, or the
   * widget switches to their existing one). Without identity tokens: the profile name for a new
   * conversation and user variables.
   */
  identify(profile: {
    identityToken?: string | (() => string | Promise<string>);
    profileName?: string;
    variables?: Record<string, string | number | boolean>;
  }): void;
  /**
   * For single-page apps, on every change of route: the next message carries `page` (sent as the user
   * variables `pageUrl` and `pageTitle`, where the BFF allows them), and `variables` are set as with `identify`.
   */
  update(context: { page?: { url: string; title?: string }; variables?: Record<string, string | number | boolean> }): void;
  /** Calls `fn` on every `event`; returns the function that removes it again. */
  on<K extends ParleyEventName>(event: K, fn: (data: ParleyEventMap[K]) => void): () => void;
  off<K extends ParleyEventName>(event: K, fn: (data: ParleyEventMap[K]) => void): void;
  /** Forgets the conversation, its tokens and the signed-in user in this browser (all tabs), e.g. on logout; the next message starts a new one. */
  reset(): void;
  /** Moves the UI inline into `element`, or back to floating without one. */
  mount(element?: HTMLElement): void;
  /** Removes the UI and stops every connection, timer and listener. */
  destroy(): void;
}
