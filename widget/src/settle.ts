/**
 * What of a streaming answer's Markdown can be shown now without flicker: nothing appears as raw
 * marks that a later chunk turns into formatting. An open code fence is closed, so the code block
 * shows at once and only grows; from the first inline mark still waiting for its closer (`**`, `*`,
 * `_`, `~~`, a backtick, a link not yet complete) the rest of the paragraph is held back until it
 * closes, as is a last line of block marks alone (`-`, `1.`, `#`, `>`) and a table before its
 * delimiter row. The finished answer is rendered as written, without this.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const BLOCK_MARKS_ONLY = /^ {0,3}(?:#{1,6}|[-*+]|\d{1,9}[.)]|>)?[ \t]*$/;

/** How many times the character at `i` repeats from there. */
function runAt(text: string, i: number): number {
  let n = 1;
  while (text[i + n] === text[i]) n++;
  return n;
}

/** Where the first inline mark of `para` that has not closed yet starts, else its length. */
function firstOpenMark(para: string): number {
  const open: { mark: string; at: number }[] = [];
  for (let i = 0; i < para.length; ) {
    const c = para[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '`') {
      const n = runAt(para, i);
      // A code span runs to the next run of exactly as many backticks; nothing inside it is a mark.
      let j = para.indexOf('`', i + n);
      while (j !== -1 && runAt(para, j) !== n) j = para.indexOf('`', j + runAt(para, j));
      if (j === -1) return open[0] ? Math.min(open[0].at, i) : i;
      i = j + n;
      continue;
    }
    if (c === '*' || c === '_' || c === '~') {
      const n = runAt(para, i);
      const before = para[i - 1] ?? ' ';
      const after = para[i + n] ?? ' ';
      const top = open[open.length - 1];
      const mark = c.repeat(n);
      if (top?.mark === mark && /\S/.test(before)) open.pop();
      // Opens only before a non-space (`5 * 3` and list bullets do not), `_` not inside a word (snake_case), `~` only doubled.
      else if (/\S/.test(after) && !(c === '_' && /\w/.test(before)) && !(c === '~' && n !== 2)) open.push({ mark, at: i });
      i += n;
      continue;
    }
    if (c === '[' || (c === '!' && para[i + 1] === '[')) {
      const link = /^!?\[[^\]\n]*(?:\](?:\([^)\n]*(\))?)?)?/.exec(para.slice(i))!;
      const done = link[1] !== undefined || (link[0].endsWith(']') && i + link[0].length < para.length);
      if (!done) return open[0] ? Math.min(open[0].at, i) : i;
      i += link[0].length;
      continue;
    }
    i++;
  }
  return open[0]?.at ?? para.length;
}

/** The part of streaming Markdown `text` that can be rendered now (see above). */
export function settle(text: string): string {
  const lines = text.split('\n');
  let fence: string | undefined;
  let start = 0; // the first line of the last paragraph outside code
  lines.forEach((line, i) => {
    const f = FENCE.exec(line)?.[1];
    if (fence) {
      if (f && f[0] === fence[0] && f.length >= fence.length) (fence = undefined), (start = i + 1);
    } else if (f) fence = f;
    else if (!line.trim()) start = i + 1;
  });
  if (fence) {
    // A closing fence that is still arriving (fewer backticks so far) would show as code for a moment.
    const last = lines[lines.length - 1]!;
    const partial = lines.length > 1 && new RegExp(`^ {0,3}\\${fence[0]}+$`).test(last) && !FENCE.test(last);
    return `${(partial ? lines.slice(0, -1) : lines).join('\n')}\n${fence}`;
  }
  const head = lines.slice(0, start).join('\n');
  let para = lines.slice(start);
  if (para.length && BLOCK_MARKS_ONLY.test(para[para.length - 1]!)) para = para.slice(0, -1);
  // A table is a paragraph of pipes until its delimiter row has ended (a line after it has begun).
  if (para[0]?.trimStart().startsWith('|') && para.length < 3) para = [];
  const body = para.join('\n');
  const kept = body.slice(0, firstOpenMark(body)).trimEnd();
  return start && kept ? `${head}\n${kept}` : head + kept;
}
