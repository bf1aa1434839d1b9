import { markdownToText } from './plain-text.js';
import type { Conversation, ConversationSummary, Hbo, StoredMessage } from './types.js';

/** In-memory conversations of the simulated service: ids, messages, history pages and summaries. */
export class ConversationStore {
  private readonly byId = new Map<number, Conversation>();
  private nextId: number;
  private readonly firstId: number;
  private nextMessageId = 50001;

  constructor(
    private readonly random: () => number,
    firstId = 1001,
  ) {
    this.nextId = firstId;
    this.firstId = firstId;
  }

  /**
   * A conversation an earlier run of the simulator opened (an id below this run's first), taken up
   * again as the real service would still have it: empty, since the simulator keeps nothing.
   */
  adopt(idText: string): Conversation | undefined {
    const text = idText.trim();
    if (!/^\d{1,15}$/.test(text) || Number(text) >= this.firstId || this.byId.has(Number(text))) return undefined;
    const conversation = this.create({ isTestChat: false }, Number(text));
    return conversation;
  }

  /** Opens a new conversation with an integer id (the service's `sessionId`). */
  create(input: { profileName?: string; isTestChat: boolean; webhookUrl?: string }, id = this.nextId++): Conversation {
    const now = Date.now();
    const conversation: Conversation = {
      id,
      state: 'active',
      isTestChat: input.isTestChat,
      createdAt: now,
      updatedAt: now,
      messages: [],
      variables: {},
      unread: 0,
    };
    if (input.profileName !== undefined) conversation.profileName = input.profileName;
    if (input.webhookUrl !== undefined) conversation.webhookUrl = input.webhookUrl;
    this.byId.set(conversation.id, conversation);
    return conversation;
  }

  /** Finds a conversation by its id as it appears in a path or a `session` field. */
  find(idText: string | number): Conversation | undefined {
    const text = String(idText).trim();
    // Strict digits only: "1001abc" or "1e3" must not alias conversation 1001 or 1000.
    if (!/^\d{1,15}$/.test(text)) return undefined;
    return this.byId.get(Number(text));
  }

  /** Appends a message; ids are integers or strings at random, as the seed allows both. */
  addMessage(conversation: Conversation, input: { message: string; hbo: Hbo; username?: string; userId?: number }): StoredMessage {
    const n = this.nextMessageId++;
    const message: StoredMessage = {
      messageId: this.random() < 0.5 ? n : `msg_${n}`,
      message: input.message,
      hbo: input.hbo,
      createdAt: Date.now(),
    };
    if (input.username !== undefined) message.username = input.username;
    if (input.userId !== undefined) message.userId = input.userId;
    conversation.messages.push(message);
    conversation.updatedAt = message.createdAt;
    if (input.hbo === 'user') conversation.unread++;
    return message;
  }

  /** One history page, newest first: offset 0 is the newest message. */
  page(conversation: Conversation, limit: number, offset: number): StoredMessage[] {
    const newestFirst = [...conversation.messages].reverse();
    return newestFirst.slice(offset, offset + limit);
  }

  /** Every conversation, most recently active first. */
  list(): Conversation[] {
    return [...this.byId.values()].sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id);
  }
}

/** The console's one-line view of a conversation. */
export function summarize(conversation: Conversation): ConversationSummary {
  const last = conversation.messages[conversation.messages.length - 1];
  const summary: ConversationSummary = {
    id: conversation.id,
    state: conversation.state,
    isTestChat: conversation.isTestChat,
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    unread: conversation.unread,
    messageCount: conversation.messages.length,
    lastMessage: last ? { hbo: last.hbo, preview: preview(last.message), createdAt: last.createdAt } : null,
  };
  if (conversation.profileName !== undefined) summary.profileName = conversation.profileName;
  // Set by the BFF for signed-in users only: the operator can trust who is writing.
  if (typeof conversation.variables.verifiedUserId === 'string') summary.verifiedUserId = conversation.variables.verifiedUserId;
  const { locale, page, pageUrl } = conversation.variables;
  if (typeof locale === 'string' && locale !== '') summary.locale = locale;
  const shownPage = typeof page === 'string' && page !== '' ? page : pageUrl;
  if (typeof shownPage === 'string' && shownPage !== '') summary.page = shownPage;
  if (conversation.operatorEmail !== undefined) summary.operatorEmail = conversation.operatorEmail;
  if (conversation.operatorName !== undefined) summary.operatorName = conversation.operatorName;
  return summary;
}

/** Short text for a list row: what the reader sees, without Markdown; a badge (JSON string) shows as its kind instead of raw JSON. */
export function preview(message: string): string {
  const trimmed = message.trim();
  if (trimmed.startsWith('{')) {
    try {
      const badge = JSON.parse(trimmed) as Record<string, unknown>;
      const described = describeBadge(badge);
      if (described !== undefined) return clip(described);
    } catch {
      // Not JSON after all: fall through and show it as text.
    }
  }
  return clip(markdownToText(trimmed));
}

const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

const KIND_NAMES: Record<string, string> = { quick_replies: 'Quick replies' };

/**
 * A rich element as an operator would name it: its kind and what it is about ("Card: Summit Shell
 * Jacket", "Carousel: 3 cards (Summit Shell Jacket, …)", "File: size-guide.txt"); undefined when it
 * has no kind (then it is no badge).
 */
export function describeBadge(badge: Record<string, unknown>): string | undefined {
  const kind = badge.type ?? badge.kind;
  if (typeof kind !== 'string' || kind === '') return undefined;
  const name = KIND_NAMES[kind] ?? kind.charAt(0).toUpperCase() + kind.slice(1).replace(/_/g, ' ');
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? markdownToText(value.trim()) : undefined);
  const items = [badge.cards, badge.elements, badge.items].find(Array.isArray) as unknown[] | undefined;
  const itemTitles = (items ?? []).map((item) => (item && typeof item === 'object' ? text((item as Record<string, unknown>).title) ?? text((item as Record<string, unknown>).label) : undefined)).filter((t): t is string => t !== undefined);
  const about = text(badge.title) ?? text(badge.label) ?? text(badge.name) ?? text(badge.text) ?? text(badge.alt) ?? text(badge.caption);
  if (kind === 'carousel' && items) return `${name}: ${items.length} ${items.length === 1 ? 'card' : 'cards'}${itemTitles.length ? ` (${itemTitles.join(', ')})` : ''}`;
  if (about) return `${name}: ${about}`;
  if (itemTitles.length) return `${name}: ${itemTitles.join(', ')}`;
  return name;
}
