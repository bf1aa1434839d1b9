import { BADGE_KINDS, badgeJson, productNamed, type BadgeKind } from './badges.js';

/** What the scripted agent needs besides the user's text. */
export interface AgentContext {
  /** Absolute origin for image and file URLs (the demo is offline, so it serves them itself). */
  origin: string;
  profileName?: string;
  /** Which spelling to use for this kind now; the engine alternates so every spelling shows up. */
  variant(kind: BadgeKind): number;
  random: () => number;
}

type Rule = { test: RegExp; reply: (ctx: AgentContext, text: string) => string[] };

const badge = (kind: BadgeKind) => (ctx: AgentContext) => [badgeJson(kind, ctx.variant(kind), ctx.origin)];

// Order matters: the first matching rule answers. Badge keywords come before topics so that
// typing "list" in the demo always shows a list.
const RULES: Rule[] = [
  {
    // The widget names uploaded files after a 📎 in the user's message; the upload flow answers about them.
    test: /📎/u,
    reply: () => ['Thanks, I have your files. Give me a moment to look at them.'],
  },
  {
    test: /\b(human|agent|person|operator|someone real)\b/i,
    // A button, like the one at the top of the chat: pressing it hands over (see isHandoffRequest).
    reply: () => [
      JSON.stringify({
        type: 'buttons',
        text: 'Of course. Press Talk to a person, here or at the top of the chat, and a Nimbus gear expert will join this conversation.',
        buttons: [{ title: HANDOFF_REQUEST, payload: HANDOFF_REQUEST }],
      }),
    ],
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
  { test: /\bcarousel\b|\bbestsellers?\b/i, reply: (ctx) => ['Here are a few favourites from the shop 👇', ...badge('carousel')(ctx)] },
  { test: /\bcards?\b/i, reply: badge('card') },
  { test: /\blist\b|\bday hike\b/i, reply: badge('list') },
  { test: /\b(image|picture|photo|map)\b/i, reply: (ctx) => [...badge('image')(ctx), 'Want the route as a GPX file? Ask in store, we are happy to help.'] },
  { test: /\b(file|size guide)\b/i, reply: (ctx) => ['Here is our size guide:', ...badge('file')(ctx)] },
  {
    // The demo's starters in its other languages (demo/main.ts) hit the same topics.
    test: /\b(order|tracking|track|parcel|package)\b|bestell|\bcommande|طلب|הזמנ/i,
    reply: () => [
      'Let me check that for you… 🔎',
      'Order `NO-48213` left our warehouse yesterday with **TrailPost** and should arrive on **Thursday**. You can follow it on the [tracking page](https://nimbus-outdoor.example/track/NO-48213).',
    ],
  },
  {
    test: /\b(hours|open|opening|closed)\b/i,
    reply: () => [
      'Our Boulder Basecamp store is open:\n\n- **Mon–Fri** 9:00–19:00\n- **Sat** 9:00–17:00\n- **Sun** _closed_ (we are out on the trail!)',
    ],
  },
  {
    test: /\b(return|returns|refund|exchange)\b|zurückgeb|rückgabe|\bretour|rembours|إرجاع|להחזיר|החזר/i,
    reply: () => [
      'Returns are free within **60 days**:\n\n1. Open [your orders](https://nimbus-outdoor.example/account/orders)\n2. Choose _Return an item_\n3. Drop the parcel at any TrailPost point\n\nRefunds reach your card within 5 working days.',
    ],
  },
  {
    test: /\b(shipping|delivery|deliver)\b/i,
    reply: () => ['Shipping is **free over €75**, otherwise €4.90. Need it fast? _Express_ arrives the next working day for €9.90.'],
  },
  {
    test: /\b(size|sizes|fit)\b|größe|\bpointure|\btaille|مقاس|מידה|מידת/i,
    reply: () => [
      'Our boots run true to size; if you are between sizes, go half a size up for long descents. Type `file` for the full size guide.',
    ],
  },
  {
    test: /\b(stock|available|availability)\b/i,
    reply: () => ['Good news: it is **in stock** online and at Boulder Basecamp. Order before 15:00 and it ships today.'],
  },
  {
    test: /\b(tent|jacket|boots?|pack|backpack|ridgeline|summit|trailhead|cirrus)\b/i,
    reply: (_ctx, text) => {
      const p = productNamed(text);
      if (p) return [`The **${p.name}** is one of our favourites: ${p.blurb}. Type \`card\` to see one up close.`];
      return ['We have packs, shells, boots and tents for every trail. Type `carousel` to browse the bestsellers.'];
    },
  },
  { test: /\b(thanks|thank you|cheers)\b/i, reply: () => ['You are welcome! Happy trails 🥾'] },
  {
    test: /\b(hi|hello|hey|good (morning|afternoon|evening))\b/i,
    reply: (ctx) => [
      `Hi${ctx.profileName ? ` ${ctx.profileName}` : ''}! 👋 I am **Juniper**, the Nimbus Outdoor assistant.`,
      'I can help with orders, returns, shipping and gear advice. Type `help` to see everything.',
    ],
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

const FALLBACKS = [
  'Thanks for your message! I am a demo assistant, so I know a few things well: **orders**, **returns**, **shipping** and **opening hours**. Type `help` to see everything I can do.',
  'Good question! I may not know that one yet. Try asking about an _order_, _returns_ or _shipping_, or type `buttons` for shortcuts.',
  'I am not sure I got that. You can ask me about our gear (try `carousel`), or type `human` to reach our team.',
];

/** The agent's reply messages (one or two) to a user message; badges are JSON strings. */
export function agentReply(text: string, ctx: AgentContext): string[] {
  for (const rule of RULES) if (rule.test.test(text)) return rule.reply(ctx, text);
  const i = Math.min(FALLBACKS.length - 1, Math.floor(ctx.random() * FALLBACKS.length));
  return [FALLBACKS[i] ?? FALLBACKS[0] ?? ''];
}

/** What the agent's hand-off button sends; the simulated agent then hands the conversation to a person. */
const HANDOFF_REQUEST = 'Talk to a person';

/** True for the hand-off button's message (or the same words typed), which escalates instead of a reply. */
export function isHandoffRequest(text: string): boolean {
  return text.trim().toLowerCase() === HANDOFF_REQUEST.toLowerCase();
}

/** The message sent right at escalation, before the operator picks up. */
export const ESCALATION_NOTICE = 'Connecting you to a human. A member of our team will reply here shortly.';

export { BADGE_KINDS };
