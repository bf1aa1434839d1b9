/** All of one widget's state, as signals. The store hands them out read-only; only its actions write them. */
import { computed, signal } from '@preact/signals';
import type { ConversationSummary, FeedbackValue, PublicConfig, SessionUser } from '../../shared/types.js';
import type { ChatMessage } from './messages.js';
import type { PrechatAnswers } from './prechat.js';

/** Where the conversation stands: not started, with the agent, with a person, or over. */
export type Convo = 'none' | 'active' | 'escalated' | 'archived';

/** True once the bot no longer has the conversation: a person has it (escalated), or it ended (archived). */
export const botDone = (c: unknown): c is 'escalated' | 'archived' => c === 'escalated' || c === 'archived';

/** A message on its way: text, or files with a text (`sent`: that text already arrived, only the files are left). */
export interface Outgoing {
  clientId: string;
  /** The browser's secret for a conversation this item starts, the same on every try (`startKey`, docs/api.md). */
  key?: string;
  text: string;
  files?: File[];
  sent?: boolean;
}

/** A file chosen for the next message, shown as a chip above the composer until it has gone. */
export interface Chosen {
  id: string;
  file: File;
  /** Percentage sent while it uploads; undefined before the send and after a refusal. */
  progress?: number;
  /** The last try was refused: it stays for Retry or removal. */
  failed?: boolean;
}

/** Creates the signals of one widget. */
export function createState() {
  const convo = signal<Convo>('none');
  const escalating = signal(false);
  const config = signal<PublicConfig | undefined>(undefined);
  const draft = signal('');
  const messages = signal<ChatMessage[]>([]);
  /** A person of the team has written in this handed-over conversation: notes on who answers and when give way to them. */
  const personHere = computed(() => convo.value === 'escalated' && messages.value.some((m) => m.role === 'operator'));
  return {
    open: signal(false),
    /** Rendered inline (`<parley-chat>`): always on screen, so nothing is unread. */
    inline: signal(false),
    messages,
    /** An older page of history exists. */
    hasMore: signal(false),
    loadingOlder: signal(false),
    /** The agent is working on an answer. */
    typing: signal(false),
    convo,
    unread: signal(0),
    /** The composer's text. */
    draft,
    /**
     * Characters the composer's text may still grow by, counted as the BFF counts (trimmed, UTF-16
     * units) against its `limits.textMaxLength` (4000, its default, until the settings arrive);
     * below 0, too long to send.
     */
    charsLeft: computed(() => (config.value?.limits?.textMaxLength || 4000) - draft.value.trim().length),
    /** The last message was refused; its text is back in `draft`. */
    failed: signal(false),
    /**
     * The conversation ended here because it can no longer be reached (its credentials were
     * refused, or the service no longer knows it), not by anyone's hand: nothing to rate.
     */
    gone: signal(false),
    online: signal(navigator.onLine !== false),
    /** The BFF answers: false while the conversation's stream has been down for a while (sync.ts). */
    reachable: signal(true),
    /**
     * Why files were not taken (`too_many`, `too_big`, with the refused `names`) or not sent (the
     * BFF's code); `item`: files whose message already arrived, retried without it.
     */
    upload: signal<{ code: string; item?: Outgoing; names?: string[] } | undefined>(undefined),
    /** The files chosen for the next message (chips), and those uploading or refused. */
    chosen: signal<Chosen[]>([]),
    /** The code of a stream `error` (e.g. `budget_exhausted`) until the next answer arrives. */
    notice: signal<string | undefined>(undefined),
    escalating,
    config,
    /** The signed-in user of the conversation (docs/api.md "Signed-in users"), if any. */
    user: signal<SessionUser | undefined>(undefined),
    /** What the panel shows: the chat, the user's conversations, or a past one read-only. */
    view: signal<'chat' | 'list' | 'past'>('chat'),
    conversations: signal<ConversationSummary[] | undefined>(undefined),
    past: signal<{ summary: ConversationSummary; messages: ChatMessage[] } | undefined>(undefined),
    /** A login switched to the user's earlier conversation: the panel says so in one line. */
    switched: signal(false),
    /** The visitor's vote on each answer, by message id (docs/api.md "Engagement"). */
    votes: signal<Record<string, FeedbackValue | undefined>>({}),
    /** The rating of the ended conversation (docs/api.md "People", CSAT): given here or in another tab. */
    rating: signal<{ score: number; comment?: string } | undefined>(undefined),
    /** The address the visitor left for the team while it was away (POST /api/contact), from any tab. */
    contact: signal<string | undefined>(undefined),
    /** The visitor's answers to the pre-chat form in this tab (`{}`: skipped), until then undefined (prechat.ts). */
    prechat: signal<PrechatAnswers | undefined>(undefined),
    /** The proactive message of `Parley('show', text)`: the first bot line until dismissed. */
    proactive: signal<string | undefined>(undefined),
    /** The proactive message is showing in its bubble beside the launcher. */
    bubble: signal(false),
    /**
     * "Talk to a person" is offered: `ESCALATION_OFFER` (docs/api.md "People") `always` offers it
     * before the first message too (the conversation that message starts then goes to a person),
     * `after_first_message` once there is a conversation, `never` not at all.
     */
    canEscalate: computed(() => {
      const offer = config.value?.handoff?.offer ?? 'always';
      if (!config.value?.features.escalation || offer === 'never' || escalating.value) return false;
      return convo.value === 'active' || (convo.value === 'none' && offer === 'always');
    }),
    personHere,
    /** Handed to a person (or asked to be) and none has written yet: the panel says one will, and, while away, when. */
    awaitingPerson: computed(() => (convo.value === 'escalated' ? !personHere.value : escalating.value && convo.value !== 'archived')),
  };
}

export type State = ReturnType<typeof createState>;
