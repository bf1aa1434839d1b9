// The demo: the BFF with the simulated service, the shop, the operator console and the webhook
// inspector on one port. Built on the server's public `start(env, {extend})`; the server itself
// never loads any of this. Run with `npm start` (nothing configured) or DEMO=true.
import { randomBytes, randomInt } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Config } from '../bff/src/config.js';
import { main, SIMULATOR_PATH, start, type Extension, type RunningServer } from '../bff/src/server.js';
import { availability } from '../bff/src/people/support-hours.js';
import { AGENT_DEMO_GREETING, MODEL_DEMO_GREETING } from './greetings.js';
import { createInspector } from './inspector.js';
import { outboxRoutes, startOutbox, type Outbox } from './outbox.js';
import { createDemoRoutes } from './routes.js';
import { createFlowSimulator } from './simulator/flows.js';
import { createGatewaySimulator } from './simulator/gateway.js';
import { createSimulator } from './simulator/index.js';

/** Starts the BFF as the demo. Anything `env` sets wins over the demo's dressing. */
export async function startDemo(env: Record<string, string | undefined> = process.env): Promise<RunningServer> {
  // With no mail server of its own, the demo catches its emails itself and shows them at /outbox.
  const outbox = env.SMTP_URL === undefined ? await startOutbox() : undefined;
  try {
    return await start(withDemoDefaults(outbox ? { ...env, SMTP_URL: outbox.url } : env), { extend: (config) => demoExtension(config, outbox) });
  } catch (err) {
    await outbox?.close();
    throw err;
  }
}

/**
 * What the simulator can show is turned on (an upload flow, escalation to a simulated operator,
 * signed-in sample customers) and the widget is dressed as the demo shop.
 */
/** The simulated operators' usernames and how visitors see them (pictures in demo/site/assets). */
export const DEMO_OPERATORS = {
  mara: { name: 'Mara Lindqvist', avatarUrl: '/demo/assets/operator-mara.svg' },
  theo: { name: 'Theo Adeyemi', avatarUrl: '/demo/assets/operator-theo.svg' },
};

/**
 * The shop's starter questions in each of the widget's languages (the widget shows the visitor's);
 * the simulated agent knows each one's topic (demo/simulator/agent.ts).
 */
export const DEMO_STARTERS = {
  en: 'Where is my order? | Which boot size should I pick? | Can I return a worn item?',
  de: 'Wo ist meine Bestellung? | Welche Schuhgröße soll ich wählen? | Kann ich einen getragenen Artikel zurückgeben?',
  fr: 'Où en est ma commande ? | Quelle pointure de chaussures choisir ? | Puis-je retourner un article déjà porté ?',
  ar: 'أين طلبي؟ | ما مقاس الحذاء الذي عليّ اختياره؟ | هل يمكنني إرجاع منتج سبق ارتداؤه؟',
  he: 'איפה ההזמנה שלי? | איזו מידת נעליים כדאי לי לבחור? | אפשר להחזיר פריט שכבר נלבש?',
};

/**
 * Where the demo listens. Its console and simulator have no sign-in, so a demo started because
 * nothing was configured (`npm start` on a laptop) stays on this machine; one started on purpose
 * (`DEMO=true`, as in the image, whose port is published) listens on every interface, as HOST's default.
 */
function demoHost(env: Record<string, string | undefined>): string {
  return env.HOST ?? (env.DEMO === undefined ? '127.0.0.1' : '0.0.0.0');
}

export function withDemoDefaults(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const demo: Record<string, string> = {
    DEMO: 'true',
    HOST: demoHost(env),
    ESCALATION_OPERATOR_EMAIL: 'operator@nimbus-outdoor.example',
    WIDGET_TITLE: 'Nimbus Outdoor',
    WIDGET_GREETING: env.CHAT_MODE === 'model' ? MODEL_DEMO_GREETING : AGENT_DEMO_GREETING,
    WIDGET_ACCENT: '#1f5f3f',
    // The people behind the chat (docs/api.md "People"): the console's operators by username, open
    // all week by default; SUPPORT_HOURS="Mon 00:00-00:01" (any window not now) shows the away state.
    OPERATOR_PROFILES: JSON.stringify(DEMO_OPERATORS),
    // With the shop's data-launcher="hours" (demo/site/index.html): while away, no launcher for new visitors.
    CLOSED_LAUNCHER: 'hide',
    WIDGET_BOT_NAME: 'Juniper',
    WIDGET_STARTERS: JSON.stringify(DEMO_STARTERS),
    // The visitor's language reaches the simulated agent, which answers its topics in it.
    LOCALE_VARIABLE: 'locale',
    // The shop signs in its sample customers with identity tokens it mints itself (demo/routes.ts).
    IDENTITY_SECRET: randomBytes(32).toString('base64url'),
    // Emails to visitors who left (docs/api.md "Continuity by email"), soon enough to watch.
    EMAIL_FROM: 'chat@nimbus-outdoor.example',
    EMAIL_AFTER_SEC: '20',
    // The simulated model gateway and the BFF share a key made up for this run.
    GATEWAY_API_KEY: randomBytes(24).toString('base64url'),
  };
  if (env.FLOW_TOKENS === undefined && env.UPLOAD_FLOW === undefined) {
    demo.FLOW_TOKENS = 'upload:demo-upload-token';
    demo.UPLOAD_FLOW = 'upload';
  }
  const merged: Record<string, string | undefined> = { ...env };
  for (const [key, value] of Object.entries(demo)) if (merged[key] === undefined) merged[key] = value;
  return merged;
}

/**
 * The simulators (agent service, model gateway, flows) under SIMULATOR_PATH and the demo pages,
 * created once the port is known, so the simulator's signed webhooks reach this very server.
 */
function demoExtension(config: Readonly<Config>, outbox: Outbox | undefined): Extension {
  const inspector = createInspector();
  return {
    observer: inspector.observer,
    async mount(app, { port, logger }) {
      const loopback = `http://127.0.0.1:${port}`;
      const publicOrigin = config.publicOrigin ?? `http://localhost:${port}`;
      const simulator = createSimulator({
        accessToken: config.upstreamAccessToken,
        botKey: config.agentBotKey,
        webhookSecret: config.webhookSecrets[0]!,
        webhookUrl: `${loopback}/webhooks/agent`,
        publicOrigin,
        replyDelayMs: config.demo?.replyDelayMs,
        firstConversationId: firstConversationId(Date.now()),
        duplicateRate: config.demo?.duplicateRate,
        // The agent follows the support hours: while the team is away, its hand-off promises no answer now.
        teamHere: () => config.supportHours === undefined || availability(config.supportHours, Date.now()).open,
      });
      // Ahead of the agent simulator's catch-all mount.
      app.route(SIMULATOR_PATH, createGatewaySimulator({ apiKey: config.gatewayApiKey }));
      app.route(SIMULATOR_PATH, createFlowSimulator({ tokens: config.flowTokens, postResult: (sessionId, text) => {
        // Through the simulator's dispatcher: signed, retried, sometimes duplicated, like any event.
        try {
          simulator.deliverMessage(sessionId, text);
        } catch (err) {
          logger.warn('flow result not delivered', { sessionId, error: String(err) });
        }
      } }));
      app.mount(SIMULATOR_PATH, (req, env) => simulator.app.fetch(req, env)); // env: Node's socket, for the reset fault
      app.route('/', inspector.app);
      if (outbox) app.route('/', outboxRoutes(outbox.mails, config.emailAfterSec));
      app.route('/', createDemoRoutes({ inspector, simulator, publicOrigin, simulatorBase: SIMULATOR_PATH, identitySecret: config.identitySecret, chatMode: config.chatMode, operators: config.operatorProfiles }));
      return { close: async () => {
        await simulator.close();
        await outbox?.close();
      } };
    },
  };
}

/**
 * The simulator's first conversation id: never one an earlier run gave out, since after a restart
 * (the BFF's logs and tokens may live on in Redis or SPENT_TOKENS_FILE) a new visitor must not get
 * an earlier visitor's conversation. Seconds × 100,000, at one of 100 blocks of 1,000 picked at
 * random: two demos started in the same second (two instances on one Redis) rarely share a block,
 * and a run would need about 1,000 new conversations a second to reach a later run's ids.
 */
export function firstConversationId(now: number): number {
  return Math.floor(now / 1000) * 100_000 + randomInt(100) * 1000;
}

/**
 * What to open, for a person reading the terminal: the JSON log line says where the server
 * listens, this says which pages there are. Printed once the server answers.
 */
export function demoPages(origin: string, host = '127.0.0.1'): string {
  const base = origin.replace(/\/+$/, '');
  const open = host === '0.0.0.0' || host === '::' || host === '';
  return [
    '',
    'Parley demo is running. Open:',
    `  Shop (the chat in the corner)   ${base}/`,
    `  Operator console                ${base}/console`,
    `  Webhook inspector               ${base}/inspector`,
    `  Outbox (emails to visitors)     ${base}/outbox`,
    ...(open
      ? [`It listens on every network interface (HOST=${host || '0.0.0.0'}): the console and the simulator have no sign-in,`, 'so anyone who can reach this port can read and write its conversations.']
      : ['Only this machine can reach it; HOST=0.0.0.0 opens it to the network (the console has no sign-in).']),
    'Stop it with Ctrl+C.',
    '',
  ].join('\n');
}

/** `npm start` in demo mode: starts the demo, then prints its pages (see demoPages). */
export function runDemo(env: Record<string, string | undefined> = process.env): Promise<void> {
  return main(async () => {
    const running = await startDemo(env);
    // The pages' own origin (PUBLIC_ORIGIN's demo default): the simulator's images name it too.
    process.stdout.write(`${demoPages(env.PUBLIC_ORIGIN ?? `http://localhost:${running.port}`, demoHost(env))}\n`);
    return running;
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void runDemo();
