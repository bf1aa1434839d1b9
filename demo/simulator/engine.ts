import { randomUUID } from 'node:crypto';
import { agentReply, escalationNotice, isHandoffRequest } from './agent.js';
import { badgeJson, type BadgeKind } from './badges.js';
import type { ConversationStore } from './conversations.js';
import { SimError } from './errors.js';
import type { Conversation, EventKind, Hbo, StoredMessage, VariableValue, WebhookEnvelope } from './types.js';
import type { WebhookDispatcher } from './webhooks.js';

export interface EngineOptions {
  defaultWebhookUrl: string;
  replyDelayMs: number;
  origin: string;
  random: () => number;
  /** Probability that `createdAt` is left out of a `message.added` envelope (the seed shows both). */
  omitCreatedAtRate: number;
  /** Whether the team is there now (support hours): the hand-off notice promises an answer only then. */
  teamHere: () => boolean;
}

/** A validated send request (REST validates; the engine trusts it). */
export interface SendInput {
  message: string;
  profileName?: string;
  isTestChat?: boolean;
  webhookOnly?: boolean;
  session?: string;
  webhookUrl?: string;
}

export type OperatorInput = { name: string } & ({ text: string } | { badge: BadgeKind });

/** The operator's user id in `message.added` events (the seed shows `userId` in one sample). */
const OPERATOR_USER_ID = 7;
/** The user variable holding the visitor's language: the demo's BFF sets it (LOCALE_VARIABLE, demo/main.ts). */
const LOCALE = 'locale';

/** The simulated service's mail domain: the team's queue and each operator's own address are on it. */
export const OPERATOR_DOMAIN = 'nimbus-outdoor.example';
/** The team's queue, where the agent's own hand-off button escalates (no one in particular has it yet). */
export const DEFAULT_OPERATOR_EMAIL = `support@${OPERATOR_DOMAIN}`;

/**
 * What happens in the simulated service: conversations change state, the scripted agent
 * replies after a delay, and every change becomes a webhook. REST and operator routes call this.
 */
export class SimulatorEngine {
  private readonly variants = new Map<BadgeKind, number>();
  // Each pending timer keeps its callback, so `close()` can run it and settle waiting requests.
  private readonly timers = new Map<ReturnType<typeof setTimeout>, () => void>();
  private pendingReplies = 0;
  private closed = false;

  constructor(
    readonly store: ConversationStore,
    private readonly dispatcher: WebhookDispatcher,
    private readonly o: EngineOptions,
  ) {}

  /** The send path: creates the conversation when `session` is absent; resolves with replies in synchronous mode. */
  async send(input: SendInput): Promise<{ session: string; messages?: StoredMessage[] }> {
    let conversation: Conversation;
    if (input.session !== undefined) {
      conversation = this.get(input.session);
      if (conversation.state === 'archived') throw archivedError();
      if (input.webhookUrl !== undefined) conversation.webhookUrl = input.webhookUrl;
    } else {
      conversation = this.store.create({ profileName: input.profileName, isTestChat: input.isTestChat ?? false, webhookUrl: input.webhookUrl });
      const data: Record<string, unknown> = { channel: 'api', isTestChat: conversation.isTestChat };
      if (input.profileName !== undefined) data.profileName = input.profileName;
      this.emit(conversation, 'conversation.created', data);
    }
    // The user's own message is history, not an event: the seed lists agent and operator messages only.
    this.store.addMessage(conversation, { message: input.message, hbo: 'user' });
    // The agent hands over when asked for a person (its own button, or the words typed), as agents with a hand-off action do.
    if (conversation.state === 'active' && isHandoffRequest(input.message)) this.escalate(conversation, DEFAULT_OPERATOR_EMAIL, undefined, 'visitor');
    const replies = conversation.state === 'active' ? this.scheduleReplies(conversation, input.message) : Promise.resolve([]);
    const session = String(conversation.id);
    if (input.webhookOnly) return { session };
    return { session, messages: await replies };
  }

  /**
   * Looks a conversation up by id text, or throws 404. One from before a restart of the simulator
   * is taken up again (the real service would still have it), so a returning visitor continues.
   */
  get(idText: string | number): Conversation {
    const conversation = this.store.find(idText) ?? this.store.adopt(String(idText));
    if (!conversation) throw new SimError(404, 'conversation_not_found', `No conversation with id "${String(idText)}"`);
    return conversation;
  }

  /**
   * Hands the conversation to a human: the agent stops replying. Repeating it changes nothing. When
   * the visitor asked (`by: 'visitor'`), the agent says it handed over, in the visitor's language
   * and by the support hours; an operator taking a conversation over says nothing (their own first
   * message is the visitor's news).
   */
  escalate(conversation: Conversation, operatorEmail: string, operatorName?: string, by: 'visitor' | 'operator' = 'visitor'): void {
    if (conversation.state === 'archived') throw archivedError();
    if (conversation.state === 'escalated') return;
    conversation.state = 'escalated';
    conversation.operatorEmail = operatorEmail;
    if (operatorName !== undefined) conversation.operatorName = operatorName;
    conversation.updatedAt = Date.now();
    this.emit(conversation, 'conversation.state_changed', { state: 'escalated', operatorEmail });
    if (by === 'visitor') this.addAndEmit(conversation, escalationNotice(conversation.variables[LOCALE], this.o.teamHere()), 'bot');
  }

  /** Closes the conversation; later sends get 409. Archiving twice emits one event. */
  archive(conversation: Conversation, by: 'api' | 'operator'): void {
    if (conversation.state === 'archived') return;
    conversation.state = 'archived';
    conversation.updatedAt = Date.now();
    this.emit(conversation, 'conversation.archived', { state: 'archived', archivedBy: by });
  }

  /** Stores user variables and emits one `user.variables.updated` per variable, as `{name, value}`. */
  setVariables(conversation: Conversation, variables: Record<string, VariableValue>): void {
    for (const [name, value] of Object.entries(variables)) {
      conversation.variables[name] = value;
      this.emit(conversation, 'user.variables.updated', { name, value });
    }
  }

  /** An operator message (text or an example badge); only in an escalated conversation. */
  operatorMessage(conversation: Conversation, input: OperatorInput): StoredMessage {
    if (conversation.state === 'archived') throw archivedError();
    if (conversation.state !== 'escalated') {
      throw new SimError(409, 'not_escalated', 'Operators answer only escalated conversations; take it over first');
    }
    const text = 'text' in input ? input.text : badgeJson(input.badge, this.nextVariant(input.badge), this.o.origin, conversation.variables[LOCALE]);
    conversation.unread = 0;
    // A conversation the visitor handed over goes to the team's queue: the first operator to answer has it.
    conversation.operatorName ??= input.name;
    return this.addAndEmit(conversation, text, 'operator', input.name);
  }

  /** A bot message from outside the scripted agent (e.g. a flow's result), stored and sent as a webhook. */
  botMessage(conversation: Conversation, text: string): StoredMessage {
    if (conversation.state === 'archived') throw archivedError();
    return this.addAndEmit(conversation, text, 'bot');
  }

  /** True when no agent reply is waiting to be sent. */
  isIdle(): boolean {
    return this.pendingReplies === 0;
  }

  /** Cancels pending replies; synchronous sends still waiting get what was sent so far. */
  close(): void {
    this.closed = true;
    for (const [timer, run] of this.timers) {
      clearTimeout(timer);
      run();
    }
    this.timers.clear();
  }

  private scheduleReplies(conversation: Conversation, text: string): Promise<StoredMessage[]> {
    // Written when the agent answers, not when the message came: as a real agent, it reads the
    // variables set meanwhile (the BFF sets the visitor's language right after the first send).
    let texts: string[] = [];
    const write = () =>
      agentReply(text, {
        origin: this.o.origin,
        profileName: conversation.profileName,
        locale: conversation.variables[LOCALE],
        variant: (kind) => this.nextVariant(kind),
        random: this.o.random,
      });
    const sent: StoredMessage[] = [];
    this.pendingReplies++;
    return new Promise((resolve) => {
      const finish = (): void => {
        this.pendingReplies--;
        resolve(sent);
      };
      const step = (index: number): void => {
        if (index === 0) texts = write();
        const next = texts[index];
        // Checked at send time: an escalation or archive meanwhile silences the agent.
        if (next === undefined || this.closed || conversation.state !== 'active') return finish();
        sent.push(this.addAndEmit(conversation, next, 'bot'));
        if (index + 1 >= texts.length) return finish();
        this.later(() => step(index + 1), this.delay() / 2);
      };
      this.later(() => step(0), this.delay());
    });
  }

  private addAndEmit(conversation: Conversation, message: string, hbo: Hbo, username?: string): StoredMessage {
    const input: { message: string; hbo: Hbo; username?: string; userId?: number } = { message, hbo };
    if (username !== undefined) {
      input.username = username;
      input.userId = OPERATOR_USER_ID;
    }
    const stored = this.store.addMessage(conversation, input);
    const data: Record<string, unknown> = { messageId: stored.messageId, message, hbo };
    if (stored.userId !== undefined) data.userId = stored.userId;
    if (stored.username !== undefined) data.username = stored.username;
    this.emit(conversation, 'message.added', data, this.o.random() < this.o.omitCreatedAtRate);
    return stored;
  }

  private emit(conversation: Conversation, event: EventKind, data: Record<string, unknown>, omitCreatedAt = false): void {
    const envelope: WebhookEnvelope = {
      event,
      eventId: `evt_${randomUUID()}`,
      sessionId: conversation.id,
      ...(omitCreatedAt ? {} : { createdAt: Date.now() }),
      data,
    };
    this.dispatcher.enqueue(envelope, conversation.webhookUrl ?? this.o.defaultWebhookUrl);
  }

  /** Alternates spellings per kind, so two calls in a row always show both. */
  private nextVariant(kind: BadgeKind): number {
    const n = this.variants.get(kind) ?? 0;
    this.variants.set(kind, n + 1);
    return n;
  }

  /** Jittered reply delay: a real agent never answers in exactly the same time. */
  private delay(): number {
    return this.o.replyDelayMs * (0.75 + this.o.random() * 0.5);
  }

  private later(run: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.set(timer, run);
  }
}

function archivedError(): SimError {
  return new SimError(409, 'conversation_archived', 'The conversation is archived');
}
