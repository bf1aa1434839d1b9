// Writes docs/configuration.md and .env.example from the schema (npm run docs:config); a test
// compares the files with these functions' output, so neither is edited by hand.
import { ENTRIES, GROUPS } from './index.js';
import type { Setting } from './setting.js';

const HOW_TO_ADD = [
  'To add a variable: one entry in the group\'s file in `bff/src/config-schema/` (its name, meaning, default and',
  'how it is read and checked; `public` if `GET /api/config` sends it, `secret` if it is never shown), the code',
  'that uses `config.<key>`, then `npm run docs:config` (a test fails while this file or `.env.example` is stale).',
];

/** docs/configuration.md: a two-line summary, how to add a variable, one table per group. */
export function renderConfigurationDoc(): string {
  const lines = [
    '# Configuration',
    '',
    'Every setting is an environment variable, read and checked once at start-up: a bad value stops the BFF with one',
    'line per problem (`Configuration error: …`), naming the variable and never printing a secret.',
    '',
    `<!-- Generated from bff/src/config-schema/ by npm run docs:config: edit the schema, not this file. -->`,
    ...HOW_TO_ADD,
    '',
    '"Demo mode" means nothing real is configured: no `UPSTREAM_BASE_URL`, and not `CHAT_MODE=model` with',
    '`GATEWAY_BASE_URL`. It runs only as the demo ([api.md, Operations](api.md#operations)). Whole numbers must lie',
    'in the range shown. *Public*: sent to every browser by `GET /api/config`; *secret*: never shown.',
  ];
  for (const [group, title] of Object.entries(GROUPS)) {
    lines.push('', `## ${title}`, '', '| Variable | Meaning | Default |', '|---|---|---|');
    // A pipe, even in a code span, would end the cell: escaped, as docs/api.md does.
    for (const [, entry] of entriesOf(group)) lines.push(`| \`${entry.env}\` | ${meaning(entry).replaceAll('|', '\\|')} | ${entry.default} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** .env.example: every variable with its meaning as a comment and its default (or empty). */
export function renderEnvExample(): string {
  const lines = [
    '# Parley BFF configuration. Copy to .env (or set in your container) and fill in.',
    '# Set UPSTREAM_BASE_URL (a model-only deployment: CHAT_MODE=model and GATEWAY_BASE_URL instead).',
    '# With neither, `npm start` runs the offline demo outside production; with NODE_ENV=production',
    '# the BFF refuses to start unless DEMO=true. Every variable: docs/configuration.md.',
    '# Generated from bff/src/config-schema/ by npm run docs:config.',
  ];
  for (const [group, title] of Object.entries(GROUPS)) {
    lines.push('', `# --- ${title.toLowerCase()}`);
    for (const [, entry] of entriesOf(group)) {
      for (const line of wrap(plain(meaning(entry)), 98)) lines.push(`# ${line}`);
      lines.push(`${entry.noEmpty && entry.example === undefined ? '# ' : ''}${entry.env}=${entry.example ?? ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function entriesOf(group: string): Array<readonly [string, Setting<unknown>]> {
  return ENTRIES.filter(([, entry]) => entry.group === group);
}

function meaning(entry: Setting<unknown>): string {
  const marks = [entry.public && '*public*', entry.secret && '*secret*'].filter(Boolean);
  return marks.length ? `${entry.doc} (${marks.join(', ')})` : entry.doc;
}

/** Markdown to a comment: no code spans, emphasis or link targets. */
function plain(markdown: string): string {
  return markdown.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1').replace(/[`*]/g, '');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
