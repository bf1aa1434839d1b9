/** The whole conversation saved as a text file (transcript.ts writes it); in the parts chunk, as few visitors save one. */
import type { Auth } from './auth.js';
import { whoWrote, type Who } from './authors.js';
import type { ConversationSlice } from './conversation.js';
import type { Strings } from './i18n.js';
import { loadMarkdown } from './markdown.js';
import { serverCount, type ChatMessage } from './messages.js';
import { saveTranscript, transcriptName, transcriptText, type TranscriptHead } from './transcript.js';

/** The strings and locale of the panel, who wrote each message as the log names them, and the panel's title and greeting. */
export type TranscriptArgs = [t: Strings, locale: string, who?: (m: ChatMessage) => Who, head?: TranscriptHead];

/** Loads the older history pages first, so that nothing is missing, then saves the file. */
export async function saveConversation(conversation: ConversationSlice, auth: Auth, report: (e: unknown) => void, ...[t, locale, who = (m) => whoWrote(m, t), head = { title: t.title }]: TranscriptArgs) {
  const messages = () => conversation.state.value.messages;
  try {
    for (let n = -1; conversation.state.value.hasMore && auth.session && n < messages().length; ) {
      n = messages().length; // a page that brings nothing new ends the loop
      await conversation.history(serverCount(messages()));
    }
  } catch (e) {
    report(e); // what is on screen is still saved
  }
  await loadMarkdown(); // answers' text is read through the Markdown chunk (as written if it cannot come)
  const now = new Date();
  saveTranscript(transcriptText(messages(), head, t, locale, who, now), transcriptName(head.title, now));
}
