// Operator console: polls the simulator's operator API (demo-only, no auth) every 1.5 s,
// shows conversations, and lets a human take over, reply, send example badges and archive.
import { ago, api, badgeOf, clock, el, status } from './dom.js';
import { FILTERS, filterConversations, isWaiting, languageName, otherVariables, pagePath, ratingLabel, ratingOf, shortClock, stars, visitorName } from './console-format.js';
import { markdownNodes } from './markdown.js';

const SIM = document.body.dataset.simBase || '/sim';
const POLL_MS = 1500;
const NAME_KEY = 'parley-demo-operator-name';
const FILTER_KEY = 'parley-demo-console-filter';
/** OPERATOR_PROFILES by username, filled from /demo/operators.json. */
let operators = {};
const $ = (id) => document.getElementById(id);

/**
 * `drawn`: the conversation the detail pane shows and its state there, so a poll can tell that it
 * was archived meanwhile. `archiving`: the id this console is archiving itself (that is no news).
 */
const state = { selected: null, threadKey: '', drawn: null, archiving: null, toEnd: false, filter: FILTERS[localStorage.getItem(FILTER_KEY)] ? localStorage.getItem(FILTER_KEY) : 'open', conversations: [] };
/** Unsent replies by conversation id: a draft stays with its customer when the operator opens another. */
const drafts = new Map();

const ROLE_LABEL = { user: 'Customer', bot: 'Juniper (AI)', operator: 'Operator' };

function stateLabel(conversation) {
  if (conversation.isTestChat) return `${conversation.state} · test`;
  return conversation.state;
}

/** The mark of a signed-in customer: the BFF verified their identity token (docs/api.md "Signed-in users"). */
function verifiedMark(c) {
  if (!c.verifiedUserId) return null;
  return el('span', { class: 'pill verified', text: '✓ verified', title: `Signed in on the shop as ${c.verifiedUserId}, verified by the BFF` });
}

/** The parts of a list entry that change between polls (none of them takes focus). */
function rowParts(c) {
  const last = c.lastMessage;
  return [
    el('span', { class: 'row' },
      el('strong', { text: visitorName(c) }),
      el('span', { class: `pill ${c.state}`, text: stateLabel(c) }),
      c.unread > 0 ? el('span', { class: 'unread', text: String(c.unread), title: 'Unread customer messages' }) : null,
    ),
    el('span', { class: 'preview', text: last ? `${ROLE_LABEL[last.hbo] || last.hbo}: ${last.preview}` : 'No messages' }),
    el('span', { class: 'when' },
      ...(c.verifiedUserId ? [verifiedMark(c), ` ${c.verifiedUserId} · `] : []),
      [`#${c.id}`, languageName(c.locale), pagePath(c.page), isWaiting(c) ? 'waiting' : null, ago(c.updatedAt)].filter(Boolean).join(' · ')),
  ];
}

/** Replaces `node`'s children with `parts`, leaving alone the ones that did not change. */
function patchChildren(node, parts) {
  if (node.children.length !== parts.length) {
    node.replaceChildren(...parts);
    return;
  }
  parts.forEach((part, i) => {
    if (!node.children[i].isEqualNode(part)) node.children[i].replaceWith(part);
  });
}

/**
 * List entries by conversation id. The list is patched, never rebuilt: a rebuild on every poll
 * threw a keyboard user's focus (and a screen reader's place) back to <body> every 1.5 s.
 */
const rows = new Map();

function renderList(all) {
  state.conversations = all;
  // The open conversation stays listed whatever the filter: archiving it leaves focus on its entry.
  const kept = new Set(filterConversations(all, state.filter));
  const conversations = all.filter((c) => kept.has(c) || c.id === state.selected);
  for (const input of document.querySelectorAll('input[name="filter"]')) {
    const count = filterConversations(all, input.value).length;
    input.nextElementSibling.textContent = `${FILTERS[input.value]} (${count})`;
  }
  $('list-empty').hidden = all.length > 0;
  $('list-empty-filtered').hidden = conversations.length > 0 || all.length === 0;
  const list = $('conversations');
  const wanted = new Set(conversations.map((c) => c.id));
  for (const [id, li] of rows) {
    if (!wanted.has(id)) {
      li.remove();
      rows.delete(id);
    }
  }
  const items = conversations.map((c) => {
    let li = rows.get(c.id);
    if (!li) {
      li = el('li', {}, el('button', { type: 'button', class: 'conversation', onclick: () => select(c.id) }));
      rows.set(c.id, li);
    }
    const button = li.firstElementChild;
    const selected = c.id === state.selected;
    button.classList.toggle('selected', selected);
    if (selected) button.setAttribute('aria-current', 'true');
    else button.removeAttribute('aria-current');
    patchChildren(button, rowParts(c));
    return li;
  });

  // Put the entries in the server's order (newest first) without moving the focused one:
  // moving a focused element blurs it. Whatever sits in its way is sent to the end and put
  // back in place by the following steps.
  const pinned = document.activeElement && list.contains(document.activeElement) ? document.activeElement.closest('li') : null;
  let next = list.firstElementChild;
  for (const li of items) {
    if (li === pinned) {
      while (next !== pinned) {
        const after = next.nextElementSibling;
        list.append(next);
        next = after;
      }
    } else if (li !== next) {
      list.insertBefore(li, next);
      continue;
    }
    next = li.nextElementSibling;
  }
}

/** An operator as visitors see them: their OPERATOR_PROFILES name, else the username. */
const shownName = (username) => operators[username.toLowerCase()]?.name || username;

function renderMessage(m) {
  const badge = badgeOf(m.message);
  const who = m.hbo === 'operator' && m.username ? shownName(m.username) : ROLE_LABEL[m.hbo] || m.hbo;
  const body = badge
    ? el('details', { class: 'badge' },
        el('summary', { text: `Rich element: ${badge.type || badge.kind || 'unknown'}${badgeSubject(badge)}` }),
        el('pre', { text: JSON.stringify(badge, null, 2) }))
    : m.hbo === 'user'
      ? el('p', { class: 'text' }, String(m.message)) // what the customer typed, exactly
      : el('div', { class: 'text md' }, markdownNodes(String(m.message)));
  // Tables and code scroll sideways on a phone: focusable, so the keyboard can scroll them too.
  for (const wide of body.querySelectorAll('pre, table')) wide.tabIndex = 0;
  return el('li', { class: `msg ${m.hbo}` },
    el('span', { class: 'who', text: `${who} · ${shortClock(m.createdAt)}` }),
    body);
}

function renderDetail(data) {
  const c = data.conversation;
  // Whether the thread shows its end, read before the header below changes height (taken over: the
  // operator's address, a wrapped Archive button) and shrinks the thread under the reader.
  const thread = $('thread');
  const atEnd = thread.scrollHeight - thread.scrollTop - thread.clientHeight < 40;
  $('placeholder').hidden = true;
  $('detail').hidden = false;
  // Only when it changed: the heading may have focus, and a screen reader would read it again.
  const heading = $('detail-title');
  const shownAs = JSON.stringify([c.id, c.profileName, c.verifiedUserId]);
  if (heading.dataset.shownAs !== shownAs) {
    heading.dataset.shownAs = shownAs;
    heading.replaceChildren(`${visitorName(c)} (#${c.id})`, ...(c.verifiedUserId ? [' ', verifiedMark(c), el('span', { class: 'user-id', text: ` user ${c.verifiedUserId}` })] : []));
  }
  const vars = otherVariables(data.variables).map(([k, v]) => `${k}=${v}`).join(', ');
  renderRating(ratingOf(data.variables));
  $('detail-meta').textContent = [
    `State: ${c.state}`,
    // Who has it (the console's operators by their display name), else the queue it waits in.
    c.operatorName ? `with ${shownName(c.operatorName)}` : c.operatorEmail ? `waiting for ${c.operatorEmail}` : null,
    c.isTestChat ? 'test chat' : null,
    vars ? `variables: ${vars}` : null,
    `started ${ago(c.createdAt)}`,
  ].filter(Boolean).join(' · ');

  const endedElsewhere = state.drawn?.id === c.id && state.drawn.state !== 'archived' && c.state === 'archived' && state.archiving !== c.id;
  state.drawn = { id: c.id, state: c.state };
  // Read before the controls below are disabled or hidden: the one with focus then loses it.
  const focused = document.activeElement;
  $('take-over').hidden = c.state !== 'active';
  $('archive').disabled = c.state === 'archived';
  const canReply = c.state === 'escalated';
  for (const control of document.querySelectorAll('#reply button, .badges button')) control.disabled = !canReply;
  // Read-only, not disabled: a draft kept after the conversation left the operator stays selectable to copy.
  $('op-text').readOnly = !canReply;
  $('op-text').setAttribute('aria-disabled', String(!canReply));
  $('op-text').placeholder = canReply ? 'Type a reply to the customer…' : c.state === 'active' ? 'Take over the conversation to reply' : 'This conversation is archived';
  if (endedElsewhere) announceEnded();
  // Focus was on a control this redraw disabled or hid (changed by someone else: archived, taken
  // over): the notice when it was archived, else the conversation's heading, keeps the place.
  if (lostFocus(focused) && state.archiving !== c.id) (endedElsewhere ? $('ended') : $('detail-title')).focus();

  // Re-render the thread only when it changed, so reading position and open badges are kept.
  const last = data.messages[data.messages.length - 1];
  const key = `${c.id}:${data.messages.length}:${last ? last.messageId : ''}`;
  if (key !== state.threadKey) {
    // Kept at the end when it was there, for another conversation, and after the operator's own reply.
    const toEnd = atEnd || state.toEnd || !state.threadKey.startsWith(`${c.id}:`);
    thread.replaceChildren(...data.messages.map(renderMessage));
    if (toEnd) thread.scrollTop = thread.scrollHeight;
    state.toEnd = false;
    state.threadKey = key;
  }

  $('deliveries').replaceChildren(
    ...data.deliveries.map((d) =>
      el('tr', { class: d.status === 200 ? 'ok' : 'bad' },
        el('td', { text: clock(d.at) }),
        el('td', { class: 'mono', text: d.eventId.slice(0, 14), title: d.eventId }),
        el('td', { text: d.kind }),
        el('td', { text: d.duplicate ? `${d.attempt} (dup)` : String(d.attempt) }),
        el('td', { text: String(d.status) + (d.gaveUp ? ' · gave up' : '') }),
        el('td', { text: String(d.durationMs) }),
      ),
    ),
  );
}

/** The visitor's rating of the conversation, as stars and their comment; hidden when unrated. */
function renderRating(rating) {
  const box = $('rating');
  box.hidden = !rating;
  const shown = rating ? JSON.stringify(rating) : '';
  if (box.dataset.shown === shown) return;
  box.dataset.shown = shown;
  box.replaceChildren(...(rating ? [
    'Rating: ',
    el('span', { class: 'stars', role: 'img', 'aria-label': ratingLabel(rating.score), text: stars(rating.score) }),
    el('span', { class: 'score', 'aria-hidden': 'true', text: ` ${rating.score}/5 ` }),
    rating.comment ? el('q', { class: 'comment', text: rating.comment }) : el('span', { class: 'comment none', text: '(no comment)' }),
  ] : []));
}

/** " · Summit Shell Jacket": what a badge is about, for its summary line. */
function badgeSubject(badge) {
  const about = [badge.title, badge.label, badge.name, badge.text, badge.alt].find((v) => typeof v === 'string' && v.trim() !== '');
  return about ? ` · ${about.trim()}` : '';
}

/** True when `control` had focus in the detail pane and a redraw just disabled, hid or locked it. */
function lostFocus(control) {
  return control instanceof HTMLElement && $('detail').contains(control) && (control.disabled || control.hidden || control.readOnly);
}

/**
 * The open conversation was archived by someone else (another operator, the customer, the API).
 * The notice says so (a live region, so it is read out; renderDetail gives it focus when the reply
 * controls held it). The draft stays in the read-only box, never cleared: nothing typed goes silently.
 */
function announceEnded() {
  const draft = $('op-text').value.trim() !== '';
  $('ended').textContent = `This conversation was archived elsewhere, so it takes no more replies.${draft ? ' Your unsent reply is kept in the box below.' : ''}`;
  status(''); // a line such as "You took over" is out of date now
}

/** Refreshes started, and the newest one whose list and detail are shown. */
let refreshes = 0;
const shown = { list: 0, detail: 0 };

async function refresh() {
  const run = ++refreshes;
  try {
    const list = await api(`${SIM}/operator/conversations`);
    // A poll can overlap an action: an answer older than the one on screen must not undo the
    // action's result (the focus moves below rely on the state the action produced).
    if (run > shown.list) {
      shown.list = run;
      renderList(list.conversations);
    }
    if (state.selected !== null) {
      const detail = await api(`${SIM}/operator/conversations/${state.selected}`);
      if (run > shown.detail) {
        shown.detail = run;
        renderDetail(detail);
      }
    }
    if (document.getElementById('status').dataset.kind === 'error') status('');
  } catch (err) {
    status(`Cannot reach the simulator: ${err.message}`, 'error');
  }
}

/** The reply box when the operator can write, else the conversation's heading (it names what opened). */
function focusDetail() {
  if (!$('op-text').readOnly) $('op-text').focus();
  else $('detail-title').focus();
}

async function select(id) {
  if (state.selected !== null) drafts.set(state.selected, $('op-text').value);
  $('op-text').value = drafts.get(id) ?? '';
  state.selected = id;
  state.threadKey = '';
  $('ended').textContent = ''; // it spoke of the conversation open before
  await refresh();
  focusDetail();
}

/** Runs an operator action on the selected conversation; true when it went through. */
async function act(label, path, body) {
  if (state.selected === null) return false;
  try {
    await api(`${SIM}/operator/conversations/${state.selected}${path}`, { method: 'POST', body: body ?? {} });
    status(label);
    await refresh();
    return true;
  } catch (err) {
    status(err.message, 'error');
    return false;
  }
}

function operatorName() {
  return $('op-name').value.trim() || undefined;
}

// The operators the BFF knows (OPERATOR_PROFILES): the console signs replies with their username.
fetch('/demo/operators.json').then((r) => r.json()).then((found) => {
  operators = found;
  const names = Object.entries(found);
  if (names.length) $('op-name').replaceChildren(...names.map(([username, p]) => el('option', { value: username, text: `${p.name || username} (${username})` })));
  $('op-name').value = localStorage.getItem(NAME_KEY) || '';
  // A name kept from a run with other OPERATOR_PROFILES is no option now: the list would show no
  // one, and the simulator would take over and answer as its default operator instead.
  if ($('op-name').selectedIndex < 0) $('op-name').selectedIndex = 0;
}).catch(() => {});
$('op-name').addEventListener('change', () => localStorage.setItem(NAME_KEY, $('op-name').value.trim()));

$('reply').addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = $('op-text').value.trim();
  if (!text || $('op-text').readOnly) return;
  const id = state.selected;
  $('op-text').value = '';
  state.toEnd = true; // the reply is what the operator wants to see next
  if (await act('Reply sent: it reaches the widget as a signed message.added webhook.', '/messages', { text, name: operatorName() })) return;
  // Not sent (archived meanwhile, simulator away): the text goes back to its conversation's box, not lost.
  state.toEnd = false;
  if (state.selected !== id) drafts.set(id, drafts.get(id) || text);
  else if (!$('op-text').value) $('op-text').value = text;
});

$('op-text').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    $('reply').requestSubmit();
  }
});

document.querySelector('.badges').addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-badge]') : null;
  if (button) act(`Sent a ${button.dataset.badge} badge.`, '/messages', { badge: button.dataset.badge, name: operatorName() });
});

// Both buttons end up hidden or disabled, which drops focus to <body>: move it on ourselves.
$('take-over').addEventListener('click', async () => {
  if (await act('You took over: the AI agent stops replying.', '/escalate', { name: operatorName() })) focusDetail();
});
$('archive').addEventListener('click', async () => {
  if (!confirm('Archive this conversation? The customer can no longer write in it.')) return;
  const id = state.selected;
  state.archiving = id;
  const archived = await act('Conversation archived.', '/archive');
  state.archiving = null;
  // Back to the list, on the archived entry: this conversation needs nothing more.
  if (archived) (rows.get(id)?.firstElementChild ?? $('detail-title')).focus();
});

for (const input of document.querySelectorAll('input[name="filter"]')) {
  input.checked = input.value === state.filter;
  input.addEventListener('change', () => {
    state.filter = input.value;
    localStorage.setItem(FILTER_KEY, input.value);
    renderList(state.conversations);
  });
}

refresh();
setInterval(refresh, POLL_MS);
