// Live webhook inspector: the BFF's verdict on every incoming webhook (SSE from
// /demo/inspector/events) next to the simulator's delivery attempts (polled), plus the forge buttons.
import { api, clock, el, status } from './dom.js';

const SIM = document.body.dataset.simBase || '/sim';
const MAX_ROWS = 200;
const $ = (id) => document.getElementById(id);

const OUTCOMES = {
  stored: ['verified · stored', 'ok'],
  duplicate: ['duplicate dropped', 'warn'],
  ignored: ['acknowledged · nothing to show', 'muted'],
  invalid_signature: ['rejected: bad signature', 'bad'],
  // `invalid_signature` told apart by the check's reason (the sender never learns it, the inspector may).
  missing_signature: ['rejected: unsigned (no signature)', 'bad'],
  malformed_signature: ['rejected: malformed signature', 'bad'],
  missing_timestamp: ['rejected: no timestamp', 'bad'],
  malformed_timestamp: ['rejected: malformed timestamp', 'bad'],
  stale_timestamp: ['rejected: stale timestamp', 'bad'],
  bad_request: ['rejected: malformed body', 'bad'],
  too_large: ['rejected: too large', 'bad'],
  store_unavailable: ['store down: 503, service retries', 'warn'],
};

const counts = { stored: 0, duplicate: 0, rejected: 0 };

function countOutcome(outcome) {
  if (outcome === 'stored' || outcome === 'duplicate') counts[outcome]++;
  else if (OUTCOMES[outcome] && OUTCOMES[outcome][1] === 'bad') counts.rejected++;
  $('count-stored').textContent = counts.stored;
  $('count-duplicate').textContent = counts.duplicate;
  $('count-rejected').textContent = counts.rejected;
}

function addObservation(o) {
  const [label, tone] = (o.outcome === 'invalid_signature' && OUTCOMES[o.reason]) || OUTCOMES[o.outcome] || [o.outcome, 'muted'];
  const forged = typeof o.eventId === 'string' && o.eventId.startsWith('evt_forged_');
  const row = el('tr', { class: `fresh ${tone}` },
    el('td', { text: clock(o.at) }),
    el('td', {}, el('span', { class: `pill ${tone}`, text: label })),
    // A rejected body is never parsed, so its event id and kind stay unknown: that is the point.
    el('td', { class: 'mono', title: o.eventId || '', text: o.eventId ? `${forged ? '⚠ ' : ''}${o.eventId.slice(0, 20)}` : tone === 'bad' ? 'not read (unverified)' : '—' }),
    el('td', { text: o.kind || '—' }),
    el('td', { text: o.conversationId || '—' }),
    el('td', { text: String(o.durationMs) }),
  );
  const body = $('received');
  body.prepend(row);
  while (body.children.length > MAX_ROWS) body.lastElementChild.remove();
  $('received-empty').hidden = true;
  countOutcome(o.outcome);
  showOverflow(body.closest('.scroll'));
}

/**
 * A table wider than its box (on a phone) says so: a line under it and a shade on the side that
 * has more, both gone once there is nothing left to scroll to. Touch scrollbars are invisible.
 */
function showOverflow(box) {
  const more = box.scrollWidth - box.clientWidth - box.scrollLeft > 1;
  box.classList.toggle('more-right', more);
  box.classList.toggle('more-left', box.scrollLeft > 1);
  const hint = box.nextElementSibling;
  if (hint && hint.classList.contains('scroll-hint')) hint.hidden = box.scrollWidth - box.clientWidth <= 1;
}

for (const box of document.querySelectorAll('.scroll')) {
  box.after(el('p', { class: 'scroll-hint', hidden: true, 'aria-hidden': 'true', text: 'More columns: scroll the table sideways →' }));
  box.addEventListener('scroll', () => showOverflow(box), { passive: true });
  new ResizeObserver(() => showOverflow(box)).observe(box);
}

function connect() {
  const source = new EventSource('/demo/inspector/events');
  source.onopen = () => {
    $('live').textContent = 'live';
    $('live').className = 'pill ok';
  };
  source.onerror = () => {
    // EventSource reconnects by itself and sends Last-Event-ID, so nothing is shown twice.
    $('live').textContent = 'reconnecting…';
    $('live').className = 'pill warn';
  };
  source.onmessage = (event) => {
    try {
      addObservation(JSON.parse(event.data));
    } catch {
      // A malformed frame is skipped; the next one is independent.
    }
  };
}

async function pollDeliveries() {
  try {
    const { deliveries } = await api(`${SIM}/operator/deliveries?limit=40`);
    $('sent').replaceChildren(
      ...deliveries.map((d) =>
        el('tr', { class: d.status === 200 ? 'ok' : 'bad' },
          el('td', { text: clock(d.at) }),
          el('td', { class: 'mono', title: d.eventId, text: d.eventId.slice(0, 20) }),
          el('td', { text: d.kind }),
          el('td', { text: String(d.conversationId) }),
          el('td', { text: d.duplicate ? `${d.attempt} · copy` : String(d.attempt) }),
          el('td', {}, el('span', { class: `pill ${d.status === 200 ? 'ok' : 'bad'}`, text: String(d.status) + (d.gaveUp ? ' · gave up' : '') })),
          el('td', { text: String(d.durationMs) }),
        ),
      ),
    );
    showOverflow($('sent').closest('.scroll'));
  } catch (err) {
    status(`Cannot reach the simulator: ${err.message}`, 'error');
  }
}

document.querySelector('.forge-buttons').addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-forge]') : null;
  if (!button) return;
  button.disabled = true;
  try {
    const result = await api('/demo/forge', { method: 'POST', body: { kind: button.dataset.forge } });
    $('forge-result').replaceChildren(
      el('strong', { text: `BFF answered ${result.status}. ` }),
      document.createTextNode(result.explanation),
    );
  } catch (err) {
    $('forge-result').textContent = `Could not send: ${err.message}`;
  } finally {
    button.disabled = false;
  }
});

connect();
pollDeliveries();
setInterval(pollDeliveries, 1500);
