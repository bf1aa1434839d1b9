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
