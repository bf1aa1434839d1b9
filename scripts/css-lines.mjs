/**
 * The widget's CSS is written one rule a line, in template literals (`export const …CSS = \`…\``
 * in `widget/src/*styles.ts`), and shipped without the line breaks between the rules: about 9 B
 * gzip of the loader and 60 B of the chat.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';


/** `css` with the line breaks between its rules taken out; a line that does not end a rule (`}`) throws, since joining it to the next could join two words. */
export function joinRules(css, where = 'CSS') {
  const open = css.split('\n').slice(0, -1).find((line) => line !== '' && !line.endsWith('}'));
  if (open !== undefined) throw new Error(`${where}: a CSS line that does not end a rule: ${open}`);
  return css.replace(/\n/g, '');
}

/**
 * The badge kinds' CSS (`export const CSS = \`…\`` in `widget/src/badges/<kind>.tsx`, which the chat and
 * its parts chunk adopt), read from the files' text in file-name order, for `widget.css`: the build's
 * config cannot import components. A rule there must be plain text, no `${…}`.
 */
export function badgeCss(dir) {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.tsx'))
    .sort()
    .map((file) => {
      const found = /const CSS = `([^`]*)`/.exec(readFileSync(join(dir, file), 'utf8'));
      if (found?.[1]?.includes('${')) throw new Error(`${file}: its CSS must be plain text`);
      return found ? found[1] : '';
    })
    .join('');
}

/** A Vite plugin that does `joinRules` to those template literals, for the widget's builds (vite.config.ts, and the loader's in build-widget.mjs). */
export function cssLines() {
  return {
    name: 'parley-css-lines',
    transform(code, id) {
      if (!/[\\/]widget[\\/]src[\\/](?:[\w-]*styles\.ts|badges[\\/][\w-]+\.tsx)$/.test(id)) return undefined;
      return { code: code.replace(/((?:export )?const \w*CSS = `)([^`]*)`/g, (_, head, body) => head + joinRules(body, id) + '`'), map: null };
    },
  };
}
