/**
 * Engagement actions (docs/api.md "Engagement"): votes on answers, stopping a model reply, the proactive message
 * (`Parley('show', text)`) and the plain-text transcript of the conversation.
 */
import { effect, signal, type ReadonlySignal } from '@preact/signals';
import type { FeedbackValue } from '../../shared/types.js';
import type { Auth } from './auth.js';
import type { ConversationSlice } from './conversation.js';
import type { TranscriptArgs } from './conversation-file.js';
import { loadParts } from './parts-loader.js';
import { keep, kept } from './storage.js';

/**
 * Creates the engagement slice of one widget: the proactive message and its bubble, written only
 * here, and what the visitor did with such messages: dismissed one (in this visit: sessionStorage),
 * or answered a text (on this browser, every tab: localStorage). `open`: the panel is open.
 */
export function createEngage(auth: Auth, conversation: ConversationSlice, open: ReadonlySignal<boolean>, report: (e: unknown) => void) {
  const dismissedKey = auth.key + ':dismissed';
  const answeredKey = auth.key + ':answered';
  const proactive = signal<string | undefined>(undefined);
  const bubble = signal(false);
  const dismissed = signal(kept<boolean>('sessionStorage', dismissedKey) === true);
  const stored = kept<string[]>('localStorage', answeredKey);
  const answered = signal(Array.isArray(stored) ? stored : []);
  const stops = [
    effect(() => keep('sessionStorage', dismissedKey, dismissed.value || undefined)),
    effect(() => keep('localStorage', answeredKey, answered.value.length ? answered.value : undefined)),
    // Opening the chat (from the bubble or anywhere) takes the bubble's text into the panel.
    effect(() => void (open.value && (bubble.value = false))),
  ];
  const messages = () => conversation.state.value.messages;

  /** Records the vote at once (every tab learns it from the stream); a refusal takes it back. */
  async function vote(messageId: string, value: FeedbackValue, comment?: string) {
    const before = conversation.vote(messageId, value);
    try {
      await auth.authed('POST /api/feedback', { body: { messageId, value, comment } });
    } catch (e) {
      conversation.vote(messageId, before);
      report(e);
    }
  }

  function stop() {
    // The button goes at once and the answer says it was stopped; the last words may still arrive.
    conversation.stopStreams();
    auth.authed('POST /api/stop').catch(report);
  }

  /**
   * Shows `text` in a bubble beside the launcher, unless the visitor dismissed a bubble in this visit
   * (any text: a dismissal says "not now", not "not this offer"), has written in the conversation, or
   * answered this very text before (also while a reload's messages are still loading).
   */
  function show(text: string) {
    text = text.trim();
    if (!text || dismissed.value || answered.value.includes(text) || messages().some((m) => m.role === 'user')) return;
    proactive.value = text;
    bubble.value = !open.value;
  }

  function dismiss() {
    dismissed.value = true;
    proactive.value = undefined;
    bubble.value = false;
  }

  /** The proactive message the visitor answers with the conversation's first message, if any (it goes along as context): not offered again. */
  function answer(): string | undefined {
    const text = proactive.value;
    if (text && !answered.value.includes(text)) answered.value = [...answered.value, text].slice(-20);
    bubble.value = false;
    return text;
  }

  /** Saves the whole conversation as text (conversation-file.ts, in the parts chunk). */
  const transcript = (...args: TranscriptArgs): Promise<void> =>
    loadParts()
      .then((p) => p.saveConversation(conversation, auth, report, ...args))
      .catch(report);

  return {
    /** The proactive message of `Parley('show', text)`: the first bot line until dismissed. */
    proactive: proactive as ReadonlySignal<string | undefined>,
    /** The proactive message is showing in its bubble beside the launcher. */
    bubble: bubble as ReadonlySignal<boolean>,
    answer,
    /** `Parley('reset')`: the next person at this browser may be offered the same texts. */
    forget: () => void (answered.value = []),
    actions: { vote, stop, show, dismiss, transcript },
    destroy: () => stops.forEach((stop) => stop()),
  };
}
