// Schema entries: the widget's look, and operations (docs/configuration.md's last table).
import { setting } from './setting.js';

const group = 'widget' as const;

export const WIDGET = {
  widgetTitle: setting({
    env: 'WIDGET_TITLE', group, default: "unset: the widget's own strings", 
    doc: 'plain text, or JSON by two-letter language (`{"en":"Help","de":"Hilfe"}`); the widget takes its language\'s entry, else its own string',
    read: (p) => p.localizedText('WIDGET_TITLE'), public: (title) => (title === undefined ? {} : { title }),
  }),
  widgetGreeting: setting({
    env: 'WIDGET_GREETING', group, doc: 'the first message, like `WIDGET_TITLE`', default: "unset: the widget's own strings",
    
    read: (p) => p.localizedText('WIDGET_GREETING'), public: (greeting) => (greeting === undefined ? {} : { greeting }),
  }),
  widgetAiLabel: setting({
    env: 'WIDGET_AI_LABEL', group, default: '`AI` in the widget\'s language (`KI`, `IA`…)', noEmpty: true,
    doc: 'the mark beside the assistant\'s name on its messages, which tells visitors they are talking to an AI (never shown on a person\'s); renamed like `WIDGET_TITLE` (plain or JSON by two-letter language), at most 24 characters; it cannot be removed: an empty value is refused at start',
    read: (p) => p.label('WIDGET_AI_LABEL', 24), public: (aiLabel) => (aiLabel === undefined ? {} : { aiLabel }),
  }),
  widgetAccent: setting({
    env: 'WIDGET_ACCENT', group, doc: 'accent colour (`#rgb` or `#rrggbb`)', default: '`#4f46e5`', example: '#4f46e5',
    read: (p) => p.color('WIDGET_ACCENT', '#4f46e5'), public: (accent) => ({ theme: { accent } }),
  }),
  widgetPosition: setting({
    env: 'WIDGET_POSITION', group, doc: '`right` or `left`', default: '`right`', example: 'right',
    read: (p) => p.oneOf('WIDGET_POSITION', ['right', 'left'] as const, 'right'), public: (position) => ({ theme: { position } }),
  }),
  widgetScheme: setting({
    env: 'WIDGET_SCHEME', group, doc: '`light`, `dark` or `auto` (`auto` follows the host page: its `color-scheme`, else its background, then the OS)', default: '`auto`', example: 'auto',
    read: (p) => p.oneOf('WIDGET_SCHEME', ['light', 'dark', 'auto'] as const, 'auto'), public: (scheme) => ({ theme: { scheme } }),
  }),
  logLevel: setting({
    env: 'LOG_LEVEL', group, doc: '`debug` (adds one line per request), `info`, `warn`, `error`, `silent`', default: '`info`', example: 'info',
    read: (p) => p.oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const, 'info'),
  }),
  metricsToken: setting({
    env: 'METRICS_TOKEN', group, doc: 'when set, `GET /metrics` needs `Authorization: Bearer <token>`', default: 'unset: open', secret: true,
    read: (p) => p.optional('METRICS_TOKEN'),
  }),
  nodeEnv: setting({
    env: 'NODE_ENV', group, doc: '`production`: nothing configured is refused instead of running the demo ([api.md, Operations](api.md#operations)); the image sets it, and an empty value in an env file would unset it', default: 'unset (the image: `production`)', example: 'production',
    read: (p) => p.optional('NODE_ENV'),
  }),
  demoOn: setting({
    env: 'DEMO', group, doc: '`true`: run the demo (simulator, shop, console, inspector) on purpose, e.g. in the image; refused beside a real `UPSTREAM_BASE_URL` (or, in model mode, `GATEWAY_BASE_URL`)',
    default: 'unset: the demo only for `npm start` outside production with nothing configured', read: (p) => p.bool('DEMO', false),
  }),
  simReplyDelayMs: setting({
    env: 'SIM_REPLY_DELAY_MS', group, doc: "demo only: the simulated agent's reply delay, ms (0–60000)", default: '`400`', example: '400',
    read: (p) => p.int('SIM_REPLY_DELAY_MS', 400, 0, 60_000),
  }),
  simDuplicateRate: setting({
    env: 'SIM_DUPLICATE_RATE', group, doc: 'demo only: the share of webhooks the simulated service sends twice (0–1)', default: '`0.1`', example: '0.1',
    read: (p) => p.number('SIM_DUPLICATE_RATE', 0.1, 0, 1),
  }),
};
