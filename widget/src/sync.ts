/**
 * The connection to the BFF for one conversation: its event stream (shared by the tabs of the
 * site) and its history pages. It only connects and hands over what arrives; what that changes
 * on screen is the store's business (conversation.ts, through `applyEvent`).
 */
import type { MessagesPage, StreamEvent, StreamEventName } from '../../shared/types.js';
import type { Auth } from './auth.js';
import { openStream, type Stream } from './events.js';
import { sharedStream } from './shared-stream.js';
import { isExpired } from './session.js';

export type Emit = (event: string, data?: unknown) => void;

const PAGE = 20;
/** How long the stream may be down before the visitor is told: a reconnect within it goes unnoticed. */
export const UNREACHABLE_AFTER_MS = 5000;
/** What the stream's holder tells the other tabs about the connection (not a stream event name). */
const CONNECTION = 'connection';

/**
 * Creates the connection of a widget talking to `bff`; `onEvent` gets every stream event with its
 * id, `onReachable` whether the BFF can be reached (false once the stream has been down a while).
 */
export function createSync(bff: string, auth: Auth, onEvent: (event: StreamEvent, id: string) => void, onReachable: (up: boolean) => void = () => {}) {
  let stream: Stream | undefined;
  let downTimer: ReturnType<typeof setTimeout> | undefined;
  /** This tab's stream opened (`true`) or failed (`false`); `undefined`: no stream any more. */
  const reach = (up: boolean | undefined) => {
    if (up === false) {
      downTimer ??= setTimeout(() => onReachable(false), UNREACHABLE_AFTER_MS);
      return;
    }
    clearTimeout(downTimer);
    downTimer = undefined;
    onReachable(true);
  };
  // The token the stream was opened with: its `token_expired` may be about a token already replaced.
  let streamToken: string | undefined;

  const deliver = (name: StreamEventName, data: unknown, id: string) => onEvent({ event: name, data } as StreamEvent, id);

  /** Opens the stream for the current session (closing any previous one), shared with other tabs. */
  function live() {
    stream?.close();
    const url = async () => {
      if (auth.session && isExpired(auth.session)) await auth.refresh();
      const s = auth.session;
      if (!s) return undefined;
      streamToken = s.token;
      // A single-use ticket, not the token, goes in the URL (URLs end up in access logs).
      const { ticket } = await auth.authed('POST /api/events/ticket');
      const last = s.lastEventId ? '&lastEventId=' + encodeURIComponent(s.lastEventId) : '';
      return `${bff}/api/events?ticket=${encodeURIComponent(ticket)}${last}`;
    };
    stream = sharedStream(
      `parley-stream:${bff}:${auth.session?.sessionId ?? ''}`,
      (relay) =>
        openStream(
          url,
          (name, data, id) => {
            deliver(name, data, id);
            // The end of this tab's token is this tab's business: others would refresh it too.
            if (!(name === 'error' && (data as { code?: string })?.code === 'token_expired')) relay([name, data, id]);
          },
          (up) => {
            reach(up);
            relay([CONNECTION, up, '']);
          },
        ),
      ([name, data, id]) => (name === CONNECTION ? reach(data as boolean) : deliver(name as StreamEventName, data, id)),
    );
  }

  /** After `token_expired`: refreshes the token the stream had (unless it was replaced already) and reconnects. */
  function renew(): Promise<void> {
    return (auth.session?.token === streamToken ? auth.refresh() : Promise.resolve()).then(() => stream?.restart());
  }

  function stop() {
    stream?.close();
    stream = undefined;
    reach(undefined);
  }

  return {
    live,
    renew,
    stop,
    /** The history page at `offset` (0 = newest). */
    page: (offset: number) => auth.authed('GET /api/messages', { query: { limit: PAGE, offset } }),
    restart: () => stream?.restart(),
    destroy() {
      stop();
      auth.stop();
    },
  };
}

export type Sync = ReturnType<typeof createSync>;
