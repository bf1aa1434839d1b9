import { agentWords, HANDOFF_REQUESTS, type AgentWords } from './agent-words.js';
import { BADGE_KINDS, badgeJson, productNamed, type BadgeKind } from './badges.js';

/** What the scripted agent needs besides the user's text. */
export interface AgentContext {
  /** Absolute origin for image and file URLs (the demo is offline, so it serves them itself). */
  origin: string;
  profileName?: string;
  /** The visitor's language, from the user variable `locale` the BFF sets (LOCALE_VARIABLE); English when unset. */
  locale?: unknown;
  /** Which spelling to use for this kind now; the engine alternates so every spelling shows up. */
  variant(kind: BadgeKind): number;
  random: () => number;
}

type Rule = { test: RegExp; reply: (ctx: AgentContext, text: string, words: AgentWords) => string[] };

const badge = (kind: BadgeKind) => (ctx: AgentContext) => [badgeJson(kind, ctx.variant(kind), ctx.origin, ctx.locale)];

// Order matters: the first matching rule answers. Badge keywords come before topics so that
// typing "list" in the demo always shows a list.
const RULES: Rule[] = [
  {
    // The widget names uploaded files after a 📎 in the user's message; the upload flow answers about them.
    test: /📎/u,
    reply: (_ctx, _text, w) => [w.files],
  },
  {
    test: /\bhelp\b/i,
    reply: () => [
      [
        "Here's what I can do in this demo:",
        '',
        '- **Orders**: ask _"where is my order?"_',
        '- **Returns**, **shipping**, **sizes** and **opening hours**',
        '- Rich replies: type `buttons`, `quick`, `card`, `carousel`, `list`, `image` or `file`',
        '- Type `markdown` for an answer with a table, lists and code',
        '- Type `human` to learn how to reach a person',
      ].join('\n'),
    ],
  },
  {
    // Before the badge keywords: "markdown list" shows formatting, not a list badge.
    test: /\b(markdown|formatting|format(ted)?)\b/i,
    reply: () => [FORMATTING],
  },
  { test: /\bbuttons?\b/i, reply: badge('buttons') },
  { test: /\bquick\b/i, reply: badge('quick_replies') },
  { test: /\bcarousel\b|\bbestsellers?\b|meilleures ventes|الأكثر مبيع|רבי המכר/i, reply: (ctx, _text, w) => [w.favourites, ...badge('carousel')(ctx)] },
  { test: /\bcards?\b/i, reply: badge('card') },
  { test: /\blist\b|\bday hike\b|tageswanderung|randonnée à la journée|نزهة ليوم|טיול יום/i, reply: badge('list') },
  { test: /\b(image|picture|photo|map)\b/i, reply: (ctx, _text, w) => [...badge('image')(ctx), w.gpx] },
  { test: /\b(file|size guide)\b/i, reply: (ctx, _text, w) => [w.sizeGuide, ...badge('file')(ctx)] },
  {
    // The demo's starters in its other languages (demo/main.ts) hit the same topics.
    test: /\b(order|tracking|track|parcel|package)\b|bestell|sendung|paket|\bcommande|\bcolis|طلب|شحنت|הזמנ|חבילה/i,
    reply: (_ctx, _text, w) => [...w.order],
  },
  {
    test: /\b(hours|open|opening|closed)\b|öffnungszeit|geöffnet|\bhoraires?\b|\bouvert|ساعات|مفتوح|שעות|פתוח/i,
    reply: (_ctx, _text, w) => [w.hours],
  },
  {
    test: /\b(return|returns|refund|exchange)\b|zurückgeb|rücksend|rückgabe|umtausch|\bretour|rembours|إرجاع|استرجاع|להחזיר|החזר/i,
    reply: (_ctx, _text, w) => [w.returns],
  },
  {
    test: /\b(shipping|delivery|deliver)\b|versand|lieferung|livraison|\blivr|الشحن|التوصيل|משלוח/i,
    reply: (_ctx, _text, w) => [w.shipping],
  },
  {
    test: /\b(size|sizes|fit)\b|größe|\bpointure|\btaille|مقاس|מידה|מידת/i,
    reply: (_ctx, _text, w) => [w.sizes],
  },
  {
    test: /\b(stock|available|availability)\b|lager|verfügbar|disponible|متوفر|במלאי/i,
    reply: (_ctx, _text, w) => [w.stock],
  },
  {
    // Before the products: "my tent pole broke" is a repair question, not a wish to shop.
    test: /\b(broke|broken|break|torn|ripped|damaged|defect\w*|faulty|leak\w*|repair|warranty)\b|kaputt|gebrochen|gerissen|defekt|undicht|reparat|garantie|cass[ée]|déchir|abîm|répar|مكسور|انكسر|ممزق|تالف|إصلاح|ضمان|שבור|נשבר|קרוע|פגום|תיקון|אחריות/i,
    reply: (_ctx, _text, w) => [w.repair],
  },
  {
    test: /\b(tent|jacket|boots?|pack|backpack|ridgeline|summit|trailhead|cirrus)\b|zelt|\btente|خيمة|אוהל/i,
    reply: (ctx, text, w) => {
      const p = productNamed(text, ctx.locale);
      return [p ? w.product(p.name, p.blurb) : w.gear];
    },
  },
  { test: /\b(thanks|thank you|cheers|danke|merci)\b|شكر|תודה/i, reply: (_ctx, _text, w) => [w.thanks] },
  {
    test: /\b(hi|hello|hey|good (morning|afternoon|evening)|hallo|guten (tag|morgen|abend)|bonjour|salut|bonsoir)\b|مرحب|السلام|שלום|היי/i,
    reply: (ctx, _text, w) => w.hello(ctx.profileName),
  },
];

/** An answer as models write them: a heading, a table wider than a phone, nested and task lists, a quote and code. */
const FORMATTING = [
  '## Which boots for which trail?',
  '',
  '| Boot | Weight | Waterproof | Best for |',
  '|---|---:|---|---|',
  '| Trailhead Mid | 1.1 kg | Yes, membrane | Day hikes on rocky paths |',
  '| Summit Alpine | 1.6 kg | Yes, full leather | Scrambles and long descents |',
  '| Ridge Runner | 0.7 kg | No | Fast, dry trails |',
  '',
  'Before you buy:',
  '',
  '1. Measure both feet in the evening',
  '   - add **half a size** for long descents',
  '   - wear your hiking socks',
  '2. Break them in on short walks first',
  '',
  '- [x] Free returns within 60 days',
  '- [ ] ~~Express~~ standard shipping is free over €75',
  '',
  '> A blister on day one spoils the whole trip. Fit comes before weight.',
  '',
  'Track an order from the command line:',
  '',
  '```sh',
  'curl https://nimbus-outdoor.example/api/orders/NO-48213',
  '```',
].join('\n');

/** The agent's reply messages (one or two) to a user message, in the visitor's language where it has one; badges are JSON strings. */
export function agentReply(text: string, ctx: AgentContext): string[] {
  const words = agentWords(ctx.locale);
  for (const rule of RULES) if (rule.test.test(text)) return rule.reply(ctx, text, words);
  const { fallbacks } = words;
  return [fallbacks[Math.floor(ctx.random() * fallbacks.length)] ?? fallbacks[0]];
}

/** A request for a person in the demo's languages ("talk to a human", "Mensch", "humain", "נציג"…). */
const PERSON = /\b(human|agent|person|operator|someone real|mensch\w*|mitarbeiter\w*|humain)\b|موظف|إنسان|شخص|נציג|אדם/i;

/** True for the hand-off button's message in any language, or a request for a person typed: it escalates instead of a reply. */
export function isHandoffRequest(text: string): boolean {
  const t = text.trim().toLowerCase();
  return HANDOFF_REQUESTS.includes(t) || (PERSON.test(t) && !/📎/u.test(t));
}

/** The message sent right at escalation, before the operator picks up, in the visitor's language; while the team is away it promises no answer now. */
export function escalationNotice(locale: unknown, teamHere = true): string {
  const words = agentWords(locale);
  return teamHere ? words.escalation : words.escalationAway;
}

export { BADGE_KINDS };
