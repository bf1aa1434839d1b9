/** A code block from Markdown (in the Markdown chunk, markdown-render.ts), with a button that copies its text and then says so. */
import { useState } from 'preact/hooks';
import type { Strings } from '../i18n.js';

const COPIED_MS = 2000;

/** `code` verbatim; the button is left out where the page gives no clipboard (an insecure origin). */
export function CodeBlock({ code, strings }: { code: string; strings: Pick<Strings, 'copyCode' | 'copied'> }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard.writeText(code).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), COPIED_MS);
    }, () => undefined);
  return (
    <div class="code">
      <pre>
        <code>{code}</code>
      </pre>
      {navigator.clipboard && (
        // aria-live: a screen reader hears "Copied" without leaving the button.
        <button type="button" class="pill copy" aria-live="polite" onClick={copy}>
          {copied ? strings.copied : strings.copyCode}
        </button>
      )}
    </div>
  );
}
