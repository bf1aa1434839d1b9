// Small DOM helpers shared by the console and the inspector. Text always goes through
// textContent, never parsed as HTML: messages come from end users and must not become markup.

/** Creates an element: `props` sets class, text, attributes and `on*` listeners; children are appended. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = String(value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) node.append(child);
  return node;
}

/** fetch + JSON; throws an Error carrying the server's `{error:{message}}` when there is one. */
export async function api(path, options = {}) {
  const init = { ...options, headers: { accept: 'application/json', ...(options.headers || {}) } };
  if (options.body !== undefined && typeof options.body !== 'string') {
    init.body = JSON.stringify(options.body);
    init.headers['content-type'] = 'application/json';
  }
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error((data.error && data.error.message) || `HTTP ${res.status}`);
  return data;
}

/** "14:03:27" in the viewer's locale. */
export function clock(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/**
 * "just now", "3 min ago", or the time for older moments ("18:25" or "6:25 PM" by the viewer's
 * locale, with the day when it was not today). Minutes, not seconds: the console's
 * list entries carry this in their names, which a screen reader reads again whenever it changes.
 */
export function ago(ms) {
  const s = Math.round((Date.now() - ms) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  const date = new Date(ms);
  const time = date.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
  return date.toDateString() === new Date().toDateString() ? time : `${date.toLocaleDateString([], { month: 'short', day: 'numeric' })}, ${time}`;
}

/** Parses a badge JSON string; undefined when the message is plain text. */
export function badgeOf(message) {
  const text = String(message).trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Shows a line in the page's status area (an aria-live region). */
export function status(text, kind = 'info') {
  const node = document.getElementById('status');
  if (!node) return;
  node.textContent = text;
  node.dataset.kind = kind;
}
