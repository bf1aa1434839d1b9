/** One event read from a `text/event-stream`: its name (default `message`) and its joined `data` lines. */
export interface ParsedSseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Incremental `text/event-stream` parser (the WHATWG rules, as eventsource-parser applies them).
 * Text may arrive cut anywhere, even between the `\r` and `\n` of one line end: `push` keeps the
 * unfinished line and returns only complete events. Decode bytes with a streaming `TextDecoder`
 * first, so a character split across chunks stays whole.
 */
export class SseParser {
  private pending = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;

  /** Feeds the next piece of text; returns the events it completed, in order. */
  push(text: string): ParsedSseEvent[] {
    const out: ParsedSseEvent[] = [];
    const buf = this.pending + text;
    let start = 0;
    for (let i = 0; i < buf.length; i++) {
      const ch = buf.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      // A `\r` at the very end may be the first half of `\r\n`: wait for the next piece.
      if (ch === 13 && i === buf.length - 1) break;
      this.line(buf.slice(start, i), out);
      if (ch === 13 && buf.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    this.pending = buf.slice(start);
    return out;
  }

  /**
   * Call when the stream ends. Unlike a browser, it also dispatches a last event that lacks its
   * closing blank line: some OpenAI-compatible servers end on `data: [DONE]\n` alone.
   */
  end(): ParsedSseEvent[] {
    const out: ParsedSseEvent[] = [];
    const rest = this.pending.endsWith('\r') ? this.pending.slice(0, -1) : this.pending;
    this.pending = '';
    if (rest !== '') this.line(rest, out);
    this.line('', out);
    return out;
  }

  private line(line: string, out: ParsedSseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) {
        const e: ParsedSseEvent = { event: this.event || 'message', data: this.data.join('\n') };
        if (this.id !== undefined) e.id = this.id;
        out.push(e);
      }
      this.data = [];
      this.event = '';
      return;
    }
    if (line.startsWith(':')) return; // comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    // `retry` and unknown fields mean nothing to a server-side reader.
  }
}
