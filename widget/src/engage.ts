/**
 * Engagement actions (docs/api.md "Engagement"): votes on answers, stopping a model reply, the proactive message
 * (`Parley('show', text)`) and the plain-text transcript of the conversation.
 */
import type { FeedbackValue } from '../../shared/types.js';
import type { Auth } from './auth.js';
import type { Strings } from './i18n.js';
import type { State } from './state.js';
import { senderOf } from './messages.js';
import { formatTime } from './time.js';

/** Creates the engagement actions of one widget; `key` names its storage (per BFF). */
export function createEngage(st: State, auth: Auth, report: (e: unknown) => void, remember: (key: string, value: string) => void) {
  const dismissedKey = auth.key + ':dismissed';

  /** Records the vote at once (every tab learns it from the stream); a refusal takes it back. */
  async function vote(messageId: string, value: FeedbackValue, comment?: string) {
    const before = st.votes.value[messageId];
    st.votes.value = { ...st.votes.value, [messageId]: value };
    try {
      await auth.authed('/api/feedback', { body: { messageId, value, comment } });
    } catch (e) {
      st.votes.value = { ...st.votes.value, [messageId]: before };
      report(e);
    }
  }

  function stop() {
    auth.authed('/api/stop', { method: 'POST' }).catch(report);
  }

  /** Shows `text` in a bubble beside the launcher, unless this browser session dismissed it already. */
  function show(text: string) {
    text = text.trim();
    if (!text || sessionStorage.getItem(dismissedKey) === text) return;
    st.proactive.value = text;
    st.bubble.value = !st.open.value;
  }

  function dismiss() {
    remember(dismissedKey, st.proactive.value || '');
    st.proactive.value = undefined;
    st.bubble.value = false;
  }

  return { vote, stop, show, dismiss };
}

/** Saves the conversation as a plain-text file, one block per message (time, sender, text), built in the browser. */
export function saveTranscript(st: State, t: Strings, locale: string) {
  const text = st.messages.value
    .map((m) => {
      // A rich element without text is named by its kind, e.g. `[carousel]`.
      return `${m.createdAt ? `[${formatTime(m.createdAt, locale, true)}] ` : ''}${senderOf(m, t)}: ${m.text || `[${m.badge?.type}]`}\n\n`;
    })
    .join('');
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  a.download = 'transcript.txt';
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
