// Operator console: polls the simulator's operator API (demo-only, no auth) every 1.5 s,
// shows conversations, and lets a human take over, reply, send example badges and archive.
import { ago, api, badgeOf, clock, el, status } from './dom.js';
import { markdownNodes } from './markdown.js';

const SIM = document.body.dataset.simBase || '/sim';
const POLL_MS = 1500;
const NAME_KEY = 'parley-demo-operator-name';
/** OPERATOR_PROFILES by username, filled from /demo/operators.json. */
let operators = {};
const $ = (id) => document.getElementById(id);

const state = { selected: null, threadKey: '' };

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

function renderList(conversations) {
  $('list-empty').hidden = conversations.length > 0;
  const items = conversations.map((c) => {
    const last = c.lastMessage;
    return el(
      'li',
      {},
      el(
        'button',
        {
          type: 'button',
          class: `conversation${c.id === state.selected ? ' selected' : ''}`,
          'aria-current': c.id === state.selected ? 'true' : undefined,
          onclick: () => select(c.id),
        },
        el('span', { class: 'row' },
          el('strong', { text: c.profileName || `Visitor #${c.id}` }),
          el('span', { class: `pill ${c.state}`, text: stateLabel(c) }),
          c.unread > 0 ? el('span', { class: 'unread', text: String(c.unread), title: 'Unread customer messages' }) : null,
        ),
        el('span', { class: 'preview', text: last ? `${ROLE_LABEL[last.hbo] || last.hbo}: ${last.preview}` : 'No messages' }),
        el('span', { class: 'when' }, `#${c.id} · `, ...(c.verifiedUserId ? [verifiedMark(c), ` ${c.verifiedUserId} · `] : []), ago(c.updatedAt)),
      ),
    );
  });
  $('conversations').replaceChildren(...items);
}

function renderMessage(m) {
  const badge = badgeOf(m.message);
  // The same names visitors see: OPERATOR_PROFILES by username, else the username.
  const who = m.hbo === 'operator' && m.username ? operators[m.username.toLowerCase()]?.name || m.username : ROLE_LABEL[m.hbo] || m.hbo;
  const body = badge
    ? el('details', { class: 'badge' },
        el('summary', { text: `Rich element: ${badge.type || badge.kind || 'unknown'}` }),
        el('pre', { text: JSON.stringify(badge, null, 2) }))
    : m.hbo === 'user'
      ? el('p', { class: 'text' }, String(m.message)) // what the customer typed, exactly
      : el('div', { class: 'text md' }, markdownNodes(String(m.message)));
  return el('li', { class: `msg ${m.hbo}` },
    el('span', { class: 'who', text: `${who} · ${clock(m.createdAt)}` }),
    body);
}

function renderDetail(data) {
  const c = data.conversation;
  $('placeholder').hidden = true;
  $('detail').hidden = false;
  $('detail-title').replaceChildren(c.profileName ? `${c.profileName} (#${c.id})` : `Visitor #${c.id}`, ...(c.verifiedUserId ? [' ', verifiedMark(c), el('span', { class: 'user-id', text: ` user ${c.verifiedUserId}` })] : []));
  const vars = Object.entries(data.variables || {}).map(([k, v]) => `${k}=${v}`).join(', ');
  $('detail-meta').textContent = [
    `State: ${c.state}`,
    c.operatorEmail ? `operator ${c.operatorEmail}` : null,
    c.isTestChat ? 'test chat' : null,
    vars ? `variables: ${vars}` : null,
    `started ${ago(c.createdAt)}`,
  ].filter(Boolean).join(' · ');

  $('take-over').hidden = c.state !== 'active';
  $('archive').disabled = c.state === 'archived';
  const canReply = c.state === 'escalated';
  for (const control of document.querySelectorAll('#reply textarea, #reply button, .badges button')) control.disabled = !canReply;
  $('op-text').placeholder = canReply ? 'Type a reply to the customer…' : c.state === 'active' ? 'Take over the conversation to reply' : 'This conversation is archived';

  // Re-render the thread only when it changed, so reading position and open badges are kept.
  const last = data.messages[data.messages.length - 1];
  const key = `${c.id}:${data.messages.length}:${last ? last.messageId : ''}`;
  if (key !== state.threadKey) {
    const thread = $('thread');
    const atBottom = thread.scrollHeight - thread.scrollTop - thread.clientHeight < 40 || !state.threadKey.startsWith(`${c.id}:`);
    thread.replaceChildren(...data.messages.map(renderMessage));
    if (atBottom) thread.scrollTop = thread.scrollHeight;
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

async function refresh() {
  try {
    const list = await api(`${SIM}/operator/conversations`);
    renderList(list.conversations);
    if (state.selected !== null) renderDetail(await api(`${SIM}/operator/conversations/${state.selected}`));
    if (document.getElementById('status').dataset.kind === 'error') status('');
  } catch (err) {
    status(`Cannot reach the simulator: ${err.message}`, 'error');
  }
}

async function select(id) {
  state.selected = id;
  state.threadKey = '';
  await refresh();
  $('op-text').focus();
}

async function act(label, path, body) {
  if (state.selected === null) return;
  try {
    await api(`${SIM}/operator/conversations/${state.selected}${path}`, { method: 'POST', body: body ?? {} });
    status(label);
    await refresh();
  } catch (err) {
    status(err.message, 'error');
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
  $('op-name').value = localStorage.getItem(NAME_KEY) || names[0]?.[0] || 'mara';
}).catch(() => {});
$('op-name').addEventListener('change', () => localStorage.setItem(NAME_KEY, $('op-name').value.trim()));

$('reply').addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = $('op-text').value.trim();
  if (!text) return;
  $('op-text').value = '';
  await act('Reply sent: it reaches the widget as a signed message.added webhook.', '/messages', { text, name: operatorName() });
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

$('take-over').addEventListener('click', () => act('You took over: the AI agent stops replying.', '/escalate'));
$('archive').addEventListener('click', () => {
  if (confirm('Archive this conversation? The customer can no longer write in it.')) act('Conversation archived.', '/archive');
});

refresh();
setInterval(refresh, POLL_MS);
