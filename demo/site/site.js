// Shop page behaviour: buttons that open the chat or send a message through the public
// window.Parley API, exactly as an integrator's own page would. No inline handlers (strict CSP).

/** Calls a widget method, or queues it with the documented stub while widget.js is loading. */
function parley(method, ...args) {
  const api = window.Parley;
  if (api && typeof api[method] === 'function') return api[method](...args);
  if (typeof api !== 'function') {
    window.Parley = function () {
      (window.Parley.q = window.Parley.q || []).push(arguments);
    };
  }
  window.Parley(method, ...args);
}

document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('[data-chat-send], [data-chat-open]') : null;
  if (!target) return;
  event.preventDefault();
  parley('open');
  const text = target.getAttribute('data-chat-send');
  if (text) parley('send', text);
});

// Signing in, as a shop with customer accounts would: the shop's backend (here POST /demo/identity)
// mints an identity token for the signed-in customer; the widget asks for a fresh one when it expires.
const CUSTOMER_KEY = 'nimbus-demo-customer';

async function identityToken(customer) {
  const res = await fetch('/demo/identity', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ customer }) });
  if (!res.ok) throw new Error('Signing in is not available');
  return (await res.json()).identityToken;
}

function showAccount(name) {
  document.getElementById('signed-out').hidden = !!name;
  document.getElementById('signed-in').hidden = !name;
  document.getElementById('customer-name').textContent = name || '';
}

const CUSTOMER_NAMES = { ada: 'Ada Lovelace', ben: 'Ben Okafor' };

function signIn(customer) {
  localStorage.setItem(CUSTOMER_KEY, customer);
  showAccount(CUSTOMER_NAMES[customer]);
  parley('identify', { identityToken: () => identityToken(customer) });
}

document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('[data-sign-in], #sign-out') : null;
  if (!target) return;
  const customer = target.getAttribute('data-sign-in');
  if (customer) {
    // Another customer on this computer: the previous one's chat must not show.
    if (localStorage.getItem(CUSTOMER_KEY)) parley('reset');
    signIn(customer);
  } else {
    localStorage.removeItem(CUSTOMER_KEY);
    showAccount('');
    parley('reset'); // logout: this browser forgets the conversation, in every tab
  }
  // The pressed button is hidden now: focus goes to its counterpart, not to <body>.
  document.querySelector(customer ? '#sign-out' : '[data-sign-in]').focus();
});

/** What a reload would show for the customer this browser remembers: their name and their chat. */
function follow(customer) {
  if (customer && CUSTOMER_NAMES[customer]) {
    showAccount(CUSTOMER_NAMES[customer]);
    parley('identify', { identityToken: () => identityToken(customer) });
  } else {
    showAccount(''); // the widget forgets the conversation in every tab by itself (Parley('reset'))
  }
}

// Another tab signed in or out: this header follows at once rather than at the next reload.
// (The storage event fires only in the other tabs of the same origin, never in the one that wrote.)
window.addEventListener('storage', (event) => {
  if (event.key === CUSTOMER_KEY || event.key === null) follow(localStorage.getItem(CUSTOMER_KEY));
});

follow(localStorage.getItem(CUSTOMER_KEY));
