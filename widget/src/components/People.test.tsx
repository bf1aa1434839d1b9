import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { pickStrings } from '../i18n.js';
import de from '../locales/de.js';
import fr from '../locales/fr.js';
import { FakeEventSource, freshBrowserEachTest, mountApp, PUBLIC_CONFIG, seedSession, sessionBody } from '../../test/support.js';

// The people behind the chat (docs/api.md "People"): authors grouped with name and picture,
// the line when an operator joins, and starter questions, through the rendered widget.
const mara = { kind: 'operator', name: 'Mara Lindqvist', avatarUrl: '/demo/assets/operator-mara.svg' };
const theo = { kind: 'operator', name: 'Theo Adeyemi' };
const CONFIG = { ...PUBLIC_CONFIG, bot: { name: 'Juniper' }, starters: ['Where is my order?', 'Which size?', 'Can I return it?'] };

freshBrowserEachTest();
afterEach(cleanup);

const open = () => fireEvent.click(document.querySelector('button.launcher')!);
const log = () => screen.getByRole('log');
const emit = (event: string, data: unknown, id: number) => act(() => FakeEventSource.last.emit(event, data, id));
/** The visible rows of the log, in order: author names, joined lines and bubbles. */
const rows = () => [...log().querySelectorAll('.who .name, .joined, .bubble')].map((el) => `${el.className.split(' ')[0]}: ${el.textContent}`);

async function withHistory(items: object[], options: object = {}, config: object = CONFIG) {
  seedSession();
  const mounted = await mountApp({ 'GET /api/messages': { body: { items, hasMore: false } } }, options, config);
  open();
  return mounted;
}

describe('the AI mark', () => {
  const items = [
    { id: '1', role: 'bot', author: { kind: 'bot', name: 'Juniper' }, text: 'I am the assistant.' },
    { id: '2', role: 'operator', author: mara, text: 'Hi, Mara here.' },
    { id: '3', role: 'bot', author: { kind: 'bot', name: 'Juniper' }, text: 'Back with me.' },
  ];
  /** The group headers of the log: each author's name and the mark beside it, if any. */
  const headers = () => [...log().querySelectorAll('.who')].map((who) => [who.querySelector('.name')!.textContent, who.querySelector('.ai')?.textContent ?? null]);

  it("is on every group of the assistant's messages, named for screen readers, and never on a person's", async () => {
    await withHistory(items);
    expect(headers()).toEqual([
      ['Juniper', 'AI'],
      ['Mara Lindqvist', null],
      ['Juniper', 'AI'],
    ]);
    expect(within(log()).getAllByRole('img', { name: 'AI assistant' })).toHaveLength(2);
  });

  it("speaks the visitor's language", async () => {
    await withHistory(items.slice(0, 1), { strings: pickStrings(de) });
    expect(headers()).toEqual([['Juniper', 'KI']]);
    expect(within(log()).getByRole('img', { name: 'KI-Assistent' })).toBeTruthy();
  });

  it("takes WIDGET_AI_LABEL's words in the visitor's language", async () => {
    await withHistory(items.slice(0, 1), { options: { locale: 'de' }, strings: pickStrings(de) }, { ...CONFIG, aiLabel: { en: 'Automated', de: 'Automatisch' } });
    expect(headers()).toEqual([['Juniper', 'Automatisch']]);
    expect(within(log()).getByRole('img', { name: 'KI-Assistent' })).toBeTruthy();
  });

  it('is never emptied by the page: a blank string override falls back to the widget\'s words', async () => {
    await withHistory(items.slice(0, 1), { strings: pickStrings(undefined, { aiMark: ' ' }) });
    expect(headers()).toEqual([['Juniper', 'AI']]);
  });
});

describe('authors', () => {
  it('names each group of one author once, with their picture or initials, and says when an operator joins', async () => {
    await withHistory([
      { id: '1', role: 'user', author: { kind: 'user' }, text: 'My boots are too small' },
      { id: '2', role: 'bot', author: { kind: 'bot', name: 'Juniper' }, text: 'Sorry to hear that.' },
      { id: '3', role: 'bot', author: { kind: 'bot', name: 'Juniper' }, text: 'Let me find someone.' },
      { id: '4', role: 'operator', author: mara, text: 'Hi, Mara here.' },
      { id: '5', role: 'operator', author: mara, text: 'Which size do you need?' },
      { id: '6', role: 'user', author: { kind: 'user' }, text: '44' },
      { id: '7', role: 'operator', author: theo, text: 'Theo from the warehouse: 44 is in stock.' },
      { id: '8', role: 'operator', author: mara, text: 'I have sent them.' },
    ]);
    expect(rows()).toEqual([
      'name: Juniper',
      'bubble: Hello from the config',
      'bubble: My boots are too small',
      'name: Juniper',
      'bubble: Sorry to hear that.',
      'bubble: Let me find someone.',
      'joined: Mara Lindqvist joined the conversation',
      'name: Mara Lindqvist',
      'bubble: Hi, Mara here.',
      'bubble: Which size do you need?',
      'bubble: 44',
      'joined: Theo Adeyemi joined the conversation',
      'name: Theo Adeyemi',
      'bubble: Theo from the warehouse: 44 is in stock.',
      'name: Mara Lindqvist',
      'bubble: I have sent them.',
    ]);
    // The picture is decoration beside the name (alt=""), from the BFF's origin; without one, initials screen readers skip.
    const marasGroup = log().querySelectorAll('.msg.operator')[0]!;
    const picture = marasGroup.querySelector('img')!;
    expect(picture.getAttribute('alt')).toBe('');
    expect(picture.getAttribute('src')).toBe('https://bff.test/demo/assets/operator-mara.svg');
    const theosGroup = log().querySelectorAll('.msg.operator')[2]!;
    expect(theosGroup.querySelector('img')).toBeNull();
    const initials = theosGroup.querySelector('.avatar')!;
    expect([initials.textContent, initials.getAttribute('aria-hidden')]).toEqual(['TA', 'true']);
    // The visitor's own group says "You" to screen readers only, once per group.
    expect([...log().querySelectorAll('.msg.user .sr-only')].map((el) => el.textContent)).toEqual(['You:', 'You:']);
  });

  it("draws initials when a picture does not load, and names live operators and the page's bot", async () => {
    await withHistory([{ id: '1', role: 'user', text: 'Hello' }], { options: { bot: { name: 'Sage Bot' } } });
    expect(within(log()).getAllByText('Sage Bot')).toHaveLength(1); // the greeting's group
    emit('message', { id: '2', role: 'operator', author: mara, text: 'Mara here' }, 2);
    fireEvent.error(log().querySelector('img')!);
    expect(log().querySelector('img')).toBeNull();
    expect(log().querySelector('.msg.operator .avatar')!.textContent).toBe('ML');
    // An operator the service did not name: the widget's own words, in the joined line too.
    emit('message', { id: '3', role: 'operator', author: { kind: 'operator' }, text: 'Hi' }, 3);
    expect(rows().slice(-3)).toEqual(['joined: A team member joined the conversation', 'name: Team member', 'bubble: Hi']);
    emit('message', { id: '4', role: 'bot', author: { kind: 'bot', name: 'Juniper' }, text: 'Back to me' }, 4);
    expect(rows().slice(-2)).toEqual(['name: Sage Bot', 'bubble: Back to me']);
  });

  it('messages from before `author` are named by their operatorName', async () => {
    await withHistory([{ id: '1', role: 'operator', operatorName: 'Sam', text: 'Hi' }], {}, PUBLIC_CONFIG);
    expect(rows()).toEqual(['name: Assistant', 'bubble: Hello from the config', 'joined: Sam joined the conversation', 'name: Sam', 'bubble: Hi']);
  });

  it('speaks German', async () => {
    await withHistory([{ id: '1', role: 'operator', author: mara, text: 'Hallo' }], { strings: pickStrings(de) });
    expect(within(log()).getByText('Mara Lindqvist ist dem Gespräch beigetreten')).toBeTruthy();
  });

  it('speaks French', async () => {
    await withHistory([{ id: '1', role: 'operator', author: { kind: 'operator' }, text: 'Bonjour' }], { strings: pickStrings(fr) });
    expect(within(log()).getByText('Un membre de l’équipe a rejoint la conversation')).toBeTruthy();
    expect(within(log()).getByText('Membre de l’équipe')).toBeTruthy();
  });

  it('takes overrides of every new string', async () => {
    const strings = pickStrings(undefined, { joined: '{name} is here', teamJoined: 'Someone is here', starters: 'Ideas' });
    await withHistory([{ id: '1', role: 'operator', author: mara, text: 'Hi' }, { id: '2', role: 'operator', author: { kind: 'operator' }, text: 'Hi too' }], { strings });
    expect(within(log()).getByText('Mara Lindqvist is here')).toBeTruthy();
    expect(within(log()).getByText('Someone is here')).toBeTruthy();
    cleanup();
    sessionStorage.clear();
    localStorage.clear();
    await mountApp({}, { strings }, CONFIG);
    open();
    expect(screen.getByRole('group', { name: 'Ideas' })).toBeTruthy();
  });
});

describe('starter questions', () => {
  it('shows the configured questions in an empty conversation; a click sends one and they go', async () => {
    const { api } = await mountApp({ 'POST /api/session': { status: 201, body: sessionBody(1) } }, {}, CONFIG);
    open();
    const group = screen.getByRole('group', { name: 'Suggested questions' });
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual(CONFIG.starters);
    fireEvent.click(within(group).getByRole('button', { name: 'Which size?' }));
    await waitFor(() => expect(api.to('POST', '/api/session')).toHaveLength(1));
    expect(api.to('POST', '/api/session')[0]!.body.text).toBe('Which size?');
    expect(screen.queryByRole('group', { name: 'Suggested questions' })).toBeNull();
    expect(within(log()).getByText('Which size?')).toBeTruthy();
    // Focus went to the composer, not to <body>.
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
  });

  it("takes the page's starters over the BFF's, in the visitor's language", async () => {
    await mountApp({}, { options: { starters: ['Wo ist meine Bestellung?'] }, strings: pickStrings(de) }, CONFIG);
    open();
    const group = screen.getByRole('group', { name: 'Vorgeschlagene Fragen' });
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual(['Wo ist meine Bestellung?']);
  });

  describe('given per language (WIDGET_STARTERS as JSON), picked like the title', () => {
    const byLanguage = { en: ['Where is my order?', 'Which size?'], de: ['Wo ist meine Bestellung?', 'Welche Größe?'], fr: ['Où en est ma commande ?'] };
    const shown = async (starters: object, locale: string, strings = pickStrings(de)) => {
      await mountApp({}, { options: { locale }, strings }, { ...CONFIG, starters });
      open();
      return within(screen.getByRole('group', { name: strings.starters })).getAllByRole('button').map((b) => b.textContent);
    };
    const again = () => {
      cleanup();
      sessionStorage.clear();
      localStorage.clear();
    };

    it("shows a German widget the German list, or the plain list when that's all there is", async () => {
      expect(await shown(byLanguage, 'de-AT')).toEqual(['Wo ist meine Bestellung?', 'Welche Größe?']);
      again();
      expect(await shown(['Where is my order?'], 'de')).toEqual(['Where is my order?']);
    });

    it('falls back to the English list where the widget has no strings of the language, and shows none where it has', async () => {
      expect(await shown(byLanguage, 'es', pickStrings())).toEqual(['Where is my order?', 'Which size?']);
      again();
      // A German widget is in German: as with the title, an operator who wrote no German list means none.
      await mountApp({}, { options: { locale: 'de' }, strings: pickStrings(de) }, { ...CONFIG, starters: { en: byLanguage.en } });
      open();
      expect(screen.queryByRole('group', { name: 'Vorgeschlagene Fragen' })).toBeNull();
    });
  });

  it('shows none in a conversation with messages', async () => {
    await withHistory([{ id: '1', role: 'user', text: 'Hi' }]);
    expect(screen.queryByRole('group', { name: 'Suggested questions' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Which size?' })).toBeNull();
  });
});
