/**
 * Engagement actions (docs/api.md "Engagement"): votes on answers, stopping a model reply, the proactive message
 * (`Parley('show', text)`) and the plain-text transcript of the conversation.
 */
import type { FeedbackValue } from '../../shared/types.js';
import type { Auth } from './auth.js';
import { whoWrote, type Who } from './authors.js';
import type { Strings } from './i18n.js';
import type { State } from './state.js';
import { serverCount, type ChatMessage } from './messages.js';
import { loadMarkdown } from './markdown.js';
import { loadParts } from './lazy.js';
import type { TranscriptHead } from './transcript.js';

/** Creates the engagement actions of one widget; `history(offset)` loads an older page. */
export function createEngage(st: State, auth: Auth, report: (e: unknown) => void, remember: (key: string, value: string) => void, history: (offset: number) => Promise<void>) {
  const dismissedKey = auth.key + ':dismissed';

  /** Records the vote at once (every tab learns it from the stream); a refusal takes it back. */
  async function vote(messageId: string, value: FeedbackValue, comment?: string) {
    const before = st.votes.value[messageId];
    st.votes.value = { ...st.votes.value, [messageId]: value };
    try {
      await auth.authed('POST /api/feedback', { body: { messageId, value, comment } });
    } catch (e) {
      st.votes.value = { ...st.votes.value, [messageId]: before };
      report(e);
    }
  }

  function stop() {
    // The button goes at once and the answer says it was stopped; the last words may still arrive.
    st.messages.value = st.messages.value.map((m) => (m.streaming ? { ...m, stopped: true } : m));
    auth.authed('POST /api/stop').catch(report);
  }

  /**
   * Shows `text` in a bubble beside the launcher, unless the visitor dismissed a bubble in this visit
   * (any text: a dismissal says "not now", not "not this offer") or has written in the conversation.
   */
  function show(text: string) {
    text = text.trim();
    if (!text || dismissed() || st.messages.value.some((m) => m.role === 'user')) return;
    st.proactive.value = text;
    st.bubble.value = !st.open.value;
  }

  function dismissed() {
    try {
      return sessionStorage.getItem(dismissedKey) !== null;
    } catch {
      return false; // storage blocked: the bubble may come back on reload, as nothing can be kept
    }
  }

  function dismiss() {
    remember(dismissedKey, st.proactive.value || '');
    st.proactive.value = undefined;
    st.bubble.value = false;
  }

  /**
   * Saves the whole conversation as text (transcript.ts): the older history pages first, so that nothing is missing.
   * `who` names the authors as the log does; `head` is the panel's title and the greeting the visitor saw.
   */
  async function transcript(t: Strings, locale: string, who: (m: ChatMessage) => Who = (m) => whoWrote(m, t), head: TranscriptHead = { title: t.title }) {
    try {
      for (let n = -1; st.hasMore.value && auth.session && n < st.messages.value.length; ) {
        n = st.messages.value.length; // a page that brings nothing new ends the loop
        await history(serverCount(st.messages.value));
      }
    } catch (e) {
      report(e); // what is on screen is still saved
    }
    const parts = await loadParts().catch(report); // the file is written by the parts chunk (lazy.tsx)
    await loadMarkdown(); // answers' text is read through the Markdown chunk (as written if it cannot come)
    if (!parts) return;
    const now = new Date();
    parts.saveTranscript(parts.transcriptText(st.messages.value, head, t, locale, who, now), parts.transcriptName(head.title, now));
  }

  return { vote, stop, show, dismiss, transcript };
}
