import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_STARTERS } from '../main.js';
import { SIZE_GUIDE_BYTES } from './badges.js';
import { createSimulator, type Simulator } from './index.js';
import { markdownToText } from './plain-text.js';

let sim: Simulator;
afterEach(async () => {
  await sim?.close();
});

function setup(): void {
  // Webhooks go nowhere (port 9, refused at once); these tests read the synchronous answers.
  sim = createSimulator({
    accessToken: 't',
    botKey: 'b',
    webhookSecret: 's',
    webhookUrl: 'http://127.0.0.1:9/hook',
    replyDelayMs: 0,
    maxAttempts: 1,
    publicOrigin: 'http://demo.test:8787/',
  });
}

/** Sends one message synchronously (into `session` when given) and returns the agent's reply strings. */
async function ask(text: string, session?: string): Promise<string[]> {
  return (await exchange(text, session)).replies;
}

async function exchange(text: string, session?: string): Promise<{ session: string; replies: string[] }> {
  const res = await sim.app.request('/v1/bots/b/messages/', {
    method: 'POST',
    headers: { authorization: 'Bearer t' },
    body: JSON.stringify({ message: text, ...(session && { session }) }),
  });
  const body = (await res.json()) as { session: string; messages: { message: string }[] };
  return { session: body.session, replies: body.messages.map((m) => m.message) };
}

/** A conversation whose `locale` user variable is set, as the demo's BFF sets it after the first send. */
async function conversationIn(locale: string): Promise<string> {
  const { session } = await exchange('hello');
  const res = await sim.app.request(`/v1/conversations/${session}/user`, {
    method: 'PATCH',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body: JSON.stringify({ locale }),
  });
  expect(res.status).toBeLessThan(300);
  return session;
}

function badgesIn(replies: string[]): Record<string, unknown>[] {
  return replies.filter((r) => r.trim().startsWith('{')).map((r) => JSON.parse(r) as Record<string, unknown>);
}

const KEYWORDS: [string, string][] = [
  ['buttons', 'buttons'],
  ['quick', 'quick_replies'],
  ['card', 'card'],
  ['carousel', 'carousel'],
  ['list', 'list'],
  ['image', 'image'],
  ['file', 'file'],
];

describe('scripted agent', () => {
  it.each(KEYWORDS)('answers "%s" with a %s badge, in at least two JSON spellings across calls', async (keyword, kind) => {
    setup();
    const spellings = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const badges = badgesIn(await ask(keyword));
      expect(badges).toHaveLength(1);
      const badge = badges[0]!;
      expect(badge.type ?? badge.kind).toBe(kind);
      spellings.add(Object.keys(badge).sort().join(','));
    }
    expect(spellings.size).toBeGreaterThanOrEqual(2);
  });

  it('builds image and file URLs from the public origin', async () => {
    setup();
    const urls = [...(await ask('image')), ...(await ask('file')), ...(await ask('card'))].join(' ').match(/https?:\/\/[^"\s)]+\.(svg|txt)/g) ?? [];
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const url of urls) expect(url.startsWith('http://demo.test:8787/demo/assets/')).toBe(true);
  });

  it('uses only https for links it writes in Markdown and buttons', async () => {
    setup();
    const all: string[] = [];
    for (const text of ['help', 'where is my order?', 'returns', 'buttons', 'buttons', 'card', 'card', 'carousel', 'list', 'list']) all.push(...(await ask(text)));
    const links = all.join('\n').match(/\]\((\S+?)\)|"url":"([^"]+)"/g) ?? [];
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) {
      if (link.includes('/demo/assets/')) continue; // offline assets from the configured origin
      expect(link).toMatch(/https:\/\//);
    }
  });

  it('answers help with what it can do, suggests a person for "human", and gives a friendly default', async () => {
    setup();
    const help = (await ask('help')).join('\n');
    for (const word of ['buttons', 'carousel', 'human', 'order']) expect(help).toContain(word);
    // A request for a person, typed or pressed, hands over at once: no reply, no second button to press.
    for (const question of ['can I talk to a person?', 'agent please', "I'd like to talk to a human", 'Talk to a person']) {
      const { session, replies } = await exchange(question);
      expect(replies, question).toEqual([]);
      expect(sim.conversation(session)!.conversation.state, question).toBe('escalated');
    }
    // An upload's message (files after 📎) is acknowledged, even when a file name is a keyword.
    expect(await ask('📎 buttons.png')).toEqual(['Thanks, I have your files. Give me a moment to look at them.']);
    const fallback = (await ask('qwertyuiop')).join(' ');
    expect(fallback.length).toBeGreaterThan(20);
    expect(fallback.trim().startsWith('{')).toBe(false);
  });

  it('answers "markdown" with a heading, a table, a nested list, a block quote and code', async () => {
    setup();
    for (const question of ['markdown', 'show me some formatting', 'markdown list']) {
      const [answer, ...rest] = await ask(question);
      expect(rest).toEqual([]);
      for (const mark of [/^## /m, /^\|---/m, /^ {3}- /m, /^> /m, /^```sh$/m]) expect(answer).toMatch(mark);
      // The console's preview of it is text, without the marks.
      expect(markdownToText(answer ?? '')).toMatch(/^Which boots for which trail\? Boot Weight [^|#`*>~]+$/);
    }
  });

  it("answers the demo's starters on their topic in each of the widget's languages", async () => {
    setup();
    const locales = readdirSync(new URL('../../widget/src/locales/', import.meta.url)).map((f) => f.replace('.ts', ''));
    expect(Object.keys(DEMO_STARTERS).sort()).toEqual(['en', ...locales].sort());
    const topics = [/^Order `NO-48213`/m, /^Our boots run true to size/, /^Returns are free/];
    for (const [lang, starters] of Object.entries(DEMO_STARTERS)) {
      const questions = starters.split('|').map((q) => q.trim());
      expect(questions, lang).toHaveLength(topics.length);
      for (const [i, question] of questions.entries()) expect((await ask(question)).join('\n'), `${lang}: ${question}`).toMatch(topics[i]!);
    }
  });

  it("answers the starters, greetings and the hand-off in the visitor's language (the locale variable), English without one", async () => {
    setup();
    const topics: Record<string, RegExp[]> = {
      de: [/^Die Bestellung `NO-48213`/m, /^Unsere Schuhe fallen normal aus/, /^Rücksendungen sind/],
      fr: [/^La commande `NO-48213`/m, /^Nos chaussures taillent/, /^Les retours sont gratuits/],
      ar: [/^غادر الطلب `NO-48213`/m, /^أحذيتنا مطابقة/, /^الإرجاع مجاني/],
      he: [/^ההזמנה `NO-48213`/m, /^הנעליים שלנו/, /^החזרות בחינם/],
    };
    for (const [lang, expected] of Object.entries(topics)) {
      const session = await conversationIn(lang === 'de' ? 'de-AT' : lang);
      const questions = DEMO_STARTERS[lang as keyof typeof DEMO_STARTERS].split('|').map((q) => q.trim());
      for (const [i, question] of questions.entries()) expect((await ask(question, session)).join('\n'), `${lang}: ${question}`).toMatch(expected[i]!);
      expect((await ask('hello', session))[0], lang).not.toMatch(/^Hi/);
      // The hand-off in the widget's own words for "Talk to a person", typed or pressed, hands over.
      const strings = (await import(`../../widget/src/locales/${lang}.ts`)) as Record<string, { human: string }>;
      const { agentWords } = await import('./agent-words.js');
      expect(agentWords(lang).handoffButton).toBe(Object.values(strings)[0]!.human);
      const typed = lang === 'de' ? 'Kann ich mit einem Menschen sprechen?' : lang === 'fr' ? 'Je veux un conseiller humain' : lang === 'ar' ? 'أريد التحدث إلى موظف' : 'אפשר נציג?';
      for (const request of [typed, agentWords(lang).handoffButton]) {
        const other = await conversationIn(lang);
        expect(await ask(request, other), `${lang}: ${request}`).toEqual([]);
        expect(sim.conversation(other)!.conversation.state).toBe('escalated');
      }
    }
    // A language without answers here gets English.
    expect((await ask('Where is my order?', await conversationIn('pt-BR'))).join('\n')).toMatch(/^Order `NO-48213`/m);
  });

  it("shows its rich answers in the visitor's language, and understands every button it offers there", async () => {
    setup();
    const { agentWords } = await import('./agent-words.js');
    const expected: Record<string, { view: string; more: string; carousel: RegExp }> = {
      de: { view: 'Produkt ansehen', more: 'Mehr erfahren', carousel: /^Unsere Bestseller/ },
      fr: { view: 'Voir le produit', more: 'En savoir plus', carousel: /^Nos meilleures ventes/ },
      ar: { view: 'عرض المنتج', more: 'أخبرني المزيد', carousel: /^الأكثر مبيعًا/ },
      he: { view: 'לצפייה במוצר', more: 'ספרו לי עוד', carousel: /^רבי המכר/ },
    };
    for (const [lang, words] of Object.entries(expected)) {
      const session = await conversationIn(lang);
      const badges: Record<string, unknown>[] = [];
      for (const keyword of ['carousel', 'carousel', 'card', 'card', 'buttons', 'buttons', 'quick', 'quick', 'list', 'list', 'image', 'image']) {
        badges.push(...badgesIn(await ask(keyword, session)));
      }
      const json = JSON.stringify(badges);
      expect(json, lang).toContain(`"${words.view}"`);
      expect(json, lang).toContain(`"${words.more}"`);
      expect(json, lang).not.toMatch(/View product|Tell me more|Our bestsellers|What can I help|Day-hike|Pick one|rain cover|Map of the/);
      expect(badges.map((b) => String(b.text)).some((text) => words.carousel.test(text)), lang).toBe(true);
      // Every button that sends a question gets an answer on its topic, never the fallback.
      const fallbacks = agentWords(lang).fallbacks as string[];
      const asks = json.match(/"(?:payload|value)":"[^"]+"/g)!.map((m) => JSON.parse(m.slice(m.indexOf(':') + 1)) as string);
      expect(asks.length, lang).toBeGreaterThan(8);
      for (const question of new Set(asks)) {
        const replies = await ask(question, session);
        expect(replies.length, `${lang}: ${question}`).toBeGreaterThan(0);
        expect(fallbacks, `${lang}: ${question}`).not.toContain(replies[0]);
      }
    }
  });

  it('answers "something broke" with repairs and the warranty, not the shop, in each language', async () => {
    setup();
    const { agentWords } = await import('./agent-words.js');
    const broken: Record<string, string> = { en: 'my tent pole broke', de: 'Meine Zeltstange ist gebrochen', fr: 'mon arceau de tente est cassé', ar: 'عمود الخيمة مكسور', he: 'מוט האוהל נשבר' };
    for (const [lang, text] of Object.entries(broken)) {
      const session = await conversationIn(lang);
      expect(await ask(text, session), lang).toEqual([agentWords(lang).repair]);
    }
    expect((await ask('my jacket zip is broken')).join(' ')).toMatch(/warranty/);
  });

  it('sometimes answers with two messages', async () => {
    setup();
    expect(await ask('where is my order?')).toHaveLength(2);
    expect(await ask('carousel')).toHaveLength(2);
  });

  it('mixes integer and string message ids', async () => {
    setup();
    for (let i = 0; i < 10; i++) await ask('hello');
    const all = sim.conversations().flatMap((c) => sim.conversation(c.id)?.messages ?? []);
    expect(all.length).toBeGreaterThanOrEqual(20);
    const types = new Set(all.map((m) => typeof m.messageId));
    expect(types).toEqual(new Set(['number', 'string']));
  });

  it('states the real size of the size-guide file', () => {
    const file = readFileSync(new URL('../site/assets/nimbus-size-guide.txt', import.meta.url));
    expect(file.byteLength).toBe(SIZE_GUIDE_BYTES);
  });
});
