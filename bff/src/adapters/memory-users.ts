import type { ConversationState, UserConversation, UserDirectory } from '../ports/user-directory.js';

interface Entry {
  title: string;
  state: ConversationState;
  updatedAt: number;
}

interface User {
  conversations: Map<string, Entry>;
  active?: string;
}

/** The user → conversations mapping in process memory (one instance; lost on restart like the event store). */
export class MemoryUserDirectory implements UserDirectory {
  private readonly owners = new Map<string, string>();
  private readonly users = new Map<string, User>();

  constructor(private readonly now: () => number = Date.now) {}

  async bind(userId: string, conversationId: string, title: string): Promise<boolean> {
    const owner = this.owners.get(conversationId);
    if (owner !== undefined && owner !== userId) return false;
    this.owners.set(conversationId, userId);
    const user = this.user(userId);
    const entry = user.conversations.get(conversationId);
    user.conversations.set(conversationId, { title: entry?.title ?? title, state: entry?.state ?? 'open', updatedAt: this.now() });
    user.active = conversationId;
    return true;
  }

  async ownerOf(conversationId: string): Promise<string | undefined> {
    return this.owners.get(conversationId);
  }

  async activeOf(userId: string): Promise<string | undefined> {
    return this.users.get(userId)?.active;
  }

  async touch(userId: string, conversationId: string, state?: ConversationState): Promise<void> {
    const user = this.users.get(userId);
    const entry = user?.conversations.get(conversationId);
    if (!user || !entry) return;
    entry.updatedAt = this.now();
    if (state) entry.state = state;
    if (entry.state === 'archived') {
      if (user.active === conversationId) user.active = undefined;
    } else {
      user.active = conversationId;
    }
  }

  async list(userId: string): Promise<UserConversation[]> {
    const user = this.users.get(userId);
    if (!user) return [];
    return [...user.conversations]
      .sort(([, a], [, b]) => b.updatedAt - a.updatedAt)
      .map(([sessionId, e]) => ({ sessionId, title: e.title, state: e.state, updatedAt: new Date(e.updatedAt).toISOString() }));
  }

  private user(userId: string): User {
    let user = this.users.get(userId);
    if (!user) this.users.set(userId, (user = { conversations: new Map() }));
    return user;
  }
}
