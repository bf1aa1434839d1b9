import { randomUUID } from 'node:crypto';
import type { Message } from '../../../shared/types.js';
import { UpstreamError } from '../errors.js';
import { conversationKey, toMessage } from '../adapters/agent-shapes.js';
import type { ChatBackend, SendMessageInput, StartInput } from '../ports/chat-backend.js';
import type { EventStore } from '../ports/event-store.js';
import type { AgentUpstream, VariableValue } from '../ports/upstream.js';
import { writeAccepted, type AcceptedWrites } from './accepted-writes.js';
import type { AuthorBook } from '../people/authors.js';
import type { Logger } from '../logger.js';

/**
 * When an uncertain send is looked for in the service's history, each after the one before (35 s
 * in all): at once first, as a connection that broke after the service took the message leaves it
 * there already, and publishing it before the agent's answer keeps every tab in order.
 */
const CONFIRM_AFTER_MS = [0, 1_000, 4_000, 10_000, 20_000];
/** Longer than the looks last, with the history reads between them. */
const CONFIRM_WINDOW_MS = 5 * 60_000;
/** History items read for it: the newest, where a message just sent is. */
const CONFIRM_PAGE = 20;
/** How much earlier than the BFF's clock at the send the service's may stamp it. */
const CLOCK_SKEW_MS = 10_000;

export interface AgentChatOptions {
  /** Operator address for escalation; unset turns escalation off. */
  operatorEmail?: string;
  /** Where the user's message is stored once the service accepted it; without it a store failure is thrown. */
  writes?: AcceptedWrites;
  now?: () => number;
  /** Names and pictures for history items (OPERATOR_PROFILES, the bot's). */
  authors?: AuthorBook;
  /** The user variable a new conversation's `locale` goes to (LOCALE_VARIABLE); unset sends none. */
  localeVariable?: string;
  logger?: Logger;
}

/**
 * Agent mode (area B): messages go upstream with `webhookOnly: true`; replies come back as
 * webhooks. The user's own message is published to the stream here, once the service took it,
 * so every tab of the conversation shows it.
 */
export class AgentChat implements ChatBackend {
  readonly mode = 'agent' as const;

  private readonly operatorEmail: string | undefined;
  private readonly writes: AcceptedWrites | undefined;
  private readonly now: () => number;
  private readonly authors: AuthorBook | undefined;
  private readonly localeVariable: string | undefined;
  private readonly logger: Logger | undefined;
  /** Timers of uncertain sends still being looked for (`confirmLater`). */
  private readonly confirming = new Set<ReturnType<typeof setTimeout>>();
  /** History items taken as an uncertain send's ("conversation\nid") → when, for as long as a look may come. */
  private readonly confirmed = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly upstream: AgentUpstream,
    private readonly store: EventStore,
    options: AgentChatOptions = {},
  ) {
    this.operatorEmail = options.operatorEmail;
    this.writes = options.writes;
    this.now = options.now ?? Date.now;
    this.authors = options.authors;
    this.localeVariable = options.localeVariable;
    this.logger = options.logger;
  }

  async startConversation(input: StartInput): Promise<{ conversationId: string; message: Message }> {
    const { session } = await this.upstream.send({ message: input.text, profileName: input.profileName });
    const conversationId = conversationKey(session);
    if (conversationId === undefined) throw new UpstreamError('upstream_error', 'The service returned an unusable session id');
    if (input.locale !== undefined) await this.sendLocale(conversationId, input.locale);
    return { conversationId, message: await this.publishUserMessage(conversationId, input.text, input.clientId) };
  }

  async sendMessage(conversationId: string, input: SendMessageInput): Promise<Message> {
    const sentAt = this.now();
    try {
      await this.upstream.send({ message: input.text, session: conversationId, ...(input.profileName !== undefined && { profileName: input.profileName }) });
    } catch (err) {
      if (err instanceof UpstreamError && err.code === 'send_uncertain') this.confirmLater(conversationId, input, sentAt, 0);
      throw err;
    }
    return this.publishUserMessage(conversationId, input.text, input.clientId);
  }

  /**
   * After a send that may or may not have reached the service (`send_uncertain`): looks for the
   * message in the service's newest history page a few times (`CONFIRM_AFTER_MS`), and once it is
   * there, publishes it as an answered send would have, so every tab and every replay shows it.
   * A message the service never got is never published (docs/design-choices.md, "Retries").
   */
  private confirmLater(conversationId: string, input: SendMessageInput, sentAt: number, attempt: number): void {
    const delay = CONFIRM_AFTER_MS[attempt];
    if (delay === undefined || this.closed) return;
    const timer = setTimeout(() => {
      this.confirming.delete(timer);
      this.confirm(conversationId, input, sentAt).then(
        (found) => found || this.confirmLater(conversationId, input, sentAt, attempt + 1),
        (err: unknown) => {
          this.logger?.warn('history not read to confirm an uncertain send', { conversationId, error: String(err) });
          this.confirmLater(conversationId, input, sentAt, attempt + 1);
        },
      );
    }, delay);
    timer.unref();
    this.confirming.add(timer);
  }

  /**
   * True once the newest history page holds a user message with the text, stamped no earlier than
   * the send (less `CLOCK_SKEW_MS`) and not already taken by another such confirmation; it is then
   * published with the service's time. An item without a time is never taken: the same words sent
   * earlier could not be told apart from it.
   */
  private async confirm(conversationId: string, input: SendMessageInput, sentAt: number): Promise<boolean> {
    const { items } = await this.listMessages(conversationId, CONFIRM_PAGE, 0);
    // Closed while the history was read: nothing is published any more (`confirmLater` stops too).
    if (this.closed) return false;
    const claim = (m: Message) => `${conversationId}\n${m.id}`;
    const found = items.find(
      (m) => m.role === 'user' && m.text === input.text && m.createdAt !== undefined && Date.parse(m.createdAt) >= sentAt - CLOCK_SKEW_MS && !this.confirmed.has(claim(m)),
    );
    if (!found) return false;
    const now = this.now();
    // Kept while another look could still find the item: as long as the looks last.
    for (const [taken, at] of this.confirmed) if (at < now - CONFIRM_WINDOW_MS) this.confirmed.delete(taken);
    this.confirmed.set(claim(found), now);
    await this.publishUserMessage(conversationId, input.text, input.clientId, found.createdAt);
    this.logger?.info('an uncertain send is in the service\'s history: published', { conversationId });
    return true;
  }

  /**
   * The visitor's language as a user variable, so the agent can answer in it. Sent before the
   * answer is written (the agent takes seconds); a refusal is logged, never the visitor's problem:
   * the message was sent, and the agent still reads the question's own language.
   */
  private async sendLocale(conversationId: string, locale: string): Promise<void> {
    if (this.localeVariable === undefined) return;
    try {
      await this.upstream.setUserVariables(conversationId, { [this.localeVariable]: locale });
    } catch (e) {
      this.logger?.warn('the visitor\'s language was not set upstream', { conversationId, error: String(e) });
    }
  }

  /** Stops looking for uncertain sends; replies arrive by webhook, and owed writes belong to the server. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.confirming) clearTimeout(timer);
    this.confirming.clear();
  }

  async listMessages(conversationId: string, limit: number, offset: number): Promise<{ items: Message[]; hasMore: boolean }> {
    // One extra item tells whether an older page exists without a count call.
    const raw = await this.upstream.listMessages(conversationId, limit + 1, offset);
    const hasMore = raw.length > limit;
    const items = raw
      .slice(0, limit)
      .map((item) => toMessage(item, undefined, undefined, this.authors))
      .filter((m): m is Message => m !== undefined);
    return { items: sortOldestFirst(items), hasMore };
  }

  async setUserVariables(conversationId: string, variables: Record<string, VariableValue>): Promise<void> {
    await this.upstream.setUserVariables(conversationId, variables);
  }

  async escalate(conversationId: string): Promise<void> {
    if (!this.operatorEmail) throw new Error('escalate called with escalation off'); // routes check the feature first
    await this.upstream.escalate(conversationId, this.operatorEmail);
  }

  async archive(conversationId: string): Promise<void> {
    await this.upstream.archive(conversationId);
  }

  /**
   * Publishes the user's message once the service has it. The service's acceptance is what
   * counts: a store failure now is repaired later (the message id is the dedup key, so a retried
   * append that had landed is not stored twice), never reported as a failed send.
   */
  private async publishUserMessage(conversationId: string, text: string, clientId: string | undefined, createdAt = new Date(this.now()).toISOString()): Promise<Message> {
    const message: Message = { id: `u_${randomUUID()}`, role: 'user', author: { kind: 'user' }, text, createdAt };
    if (clientId) message.clientId = clientId;
    const append = () => this.store.append(conversationId, { event: 'message', data: message }, { dedupKey: `user-message:${message.id}` });
    await writeAccepted(this.writes, `message ${conversationId}`, append);
    return message;
  }
}

/** Upstream order is not documented: sort by time when every item has one, else keep it newest-last. */
function sortOldestFirst(items: Message[]): Message[] {
  if (items.length > 1 && items.every((m) => m.createdAt)) {
    return items
      .map((m, i) => ({ m, i, t: Date.parse(m.createdAt!) }))
      .sort((a, b) => a.t - b.t || b.i - a.i)
      .map((x) => x.m);
  }
  return items;
}
