// The React recipe of docs/frameworks.md, as the page runs it (test/e2e/react.test.ts).
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

const BFF = document.documentElement.dataset.bff;

/** Adds the chat once; renders nothing. */
export function ParleyChat({ onMessage }) {
  useEffect(() => {
    if (!document.querySelector('script[data-parley-src]')) {
      const s = document.createElement('script');
      s.src = `${BFF}/widget.js`;
      s.async = true;
      s.dataset.parleySrc = '';
      document.head.appendChild(s);
    }
  }, []);
  // A handler for as long as the component is mounted (on() returns its removal).
  useEffect(() => {
    if (!onMessage) return;
    window.Parley = window.Parley || function () { (Parley.q = Parley.q || []).push(arguments); };
    if (window.Parley.on) return window.Parley.on('message', onMessage);
    Parley('on', 'message', onMessage);
    return () => Parley('off', 'message', onMessage);
  }, [onMessage]);
  return null;
}

/** A product page's own button: opens the chat with a question ready to send. */
export function AskAboutProduct({ name }) {
  return <button onClick={() => window.Parley?.open?.({ prefill: `Is the ${name} in stock?` })}>Ask about this product</button>;
}

function App() {
  const [listening, setListening] = useState(true);
  return (
    <main>
      <h1>Ridge tent</h1>
      {listening && <ParleyChat onMessage={onMessage} />}
      <AskAboutProduct name="Ridge tent" />
      <button onClick={() => setListening(false)}>Stop listening</button>
    </main>
  );
}
const onMessage = (m) => window.heard.push(m.text);
window.heard = [];
createRoot(document.getElementById('app')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
