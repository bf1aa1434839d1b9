// Schema entries: the service, the model gateway and the chat (docs/configuration.md's first table).
import { randomBytes } from 'node:crypto';
import type { Parser } from '../env-parser.js';
import { SETTING_VARIABLE_NAME } from '../lib/variables.js';
import { MIN_WEBHOOK_SECRET_LENGTH } from '../lib/webhook-verify.js';
import { parseFlowTokens, refuseVerifiedNames, secret, setting } from './setting.js';

const group = 'service' as const;
const noSlash = (url: string | undefined) => url?.replace(/\/+$/, '');

export const SERVICE = {
  port: setting({ env: 'PORT', group, doc: 'listen port (0–65535; 0 picks a free port)', default: '`8787`', example: '8787', read: (p) => p.int('PORT', 8787, 0, 65535) }),
  host: setting({
    env: 'HOST', group, doc: 'listen address', default: '`0.0.0.0` (the demo `npm start` runs with nothing configured: `127.0.0.1`)', example: '0.0.0.0',
    read: (p) => p.string('HOST', '0.0.0.0'),
  }),
  upstreamBaseUrl: setting({
    env: 'UPSTREAM_BASE_URL', group, doc: '`{base_url}` of the service: agent messaging and flows', default: 'unset: demo mode, unless model-only',
    read: (p) => noSlash(p.url('UPSTREAM_BASE_URL')),
  }),
  upstreamAccessToken: setting({
    env: 'UPSTREAM_ACCESS_TOKEN', group, doc: 'bearer token for agent messaging', default: 'required in agent mode', secret: true,
    read: (p, mode) => secret(p, 'UPSTREAM_ACCESS_TOKEN', mode.agentNeeded),
  }),
  agentBotKey: setting({
    env: 'AGENT_BOT_KEY', group, doc: "the agent's `bot_key`", default: 'required in agent mode', secret: true,
    read: (p, mode) => secret(p, 'AGENT_BOT_KEY', mode.agentNeeded),
  }),
  webhookSecrets: setting({
    env: 'WEBHOOK_SECRET', group, secret: true, default: 'required in agent mode or with `FLOW_TOKENS`',
    doc: 'secret(s) of incoming webhooks, each at least 16 characters, comma-separated during a rotation (any one may match)',
    read: (p, mode) => readWebhookSecrets(p, mode.webhooksNeeded),
  }),
  testChat: setting({ env: 'TEST_CHAT', group, doc: 'send `isTestChat: true` with first messages', default: '`false`', example: 'false', read: (p) => p.bool('TEST_CHAT', false) }),
  devWebhookUrl: setting({ env: 'DEV_WEBHOOK_URL', group, doc: 'sent as `webhookUrl` with every send (local testing only)', default: 'unset', read: (p) => p.url('DEV_WEBHOOK_URL') }),
  escalationOperatorEmail: setting({
    env: 'ESCALATION_OPERATOR_EMAIL', group, doc: 'operator address for "talk to a person"; unset turns escalation off', default: 'unset',
    read: (p) => p.email('ESCALATION_OPERATOR_EMAIL'),
  }),
  userVariables: setting({
    env: 'USER_VARIABLES', group, default: 'empty', 
    doc: 'variable names the browser (or, with identity, the identity token) may set; never `verifiedUserId`, `verifiedEmail`',
    read: (p) => readUserVariables(p), public: (userVariables) => ({ userVariables: [...userVariables] }),
  }),
  localeVariable: setting({
    env: 'LOCALE_VARIABLE', group, default: 'unset: not sent',
    doc: 'the user variable that receives the visitor\'s language (a tag like `de` or `pt-BR`, the widget\'s `locale` or the browser\'s) when a conversation starts, so the agent can answer in it (agent mode)',
    read: (p) => readLocaleVariable(p),
  }),
  flowTokens: setting({
    env: 'FLOW_TOKENS', group, secret: true, default: 'empty',
    doc: '`name:token,name2:token2`: flows the widget may trigger (names of letters, digits, `_`, `-`); needs `UPSTREAM_BASE_URL`',
    read: (p) => parseFlowTokens(p, p.list('FLOW_TOKENS', [])),
  }),
  uploadFlow: setting({
    env: 'UPLOAD_FLOW', group, doc: 'the flow (named in `FLOW_TOKENS`) that receives chat uploads; unset turns uploads off', default: 'unset',
    read: (p) => p.optional('UPLOAD_FLOW'),
  }),
  chatMode: setting({
    env: 'CHAT_MODE', group, doc: '`agent` (the service\'s agent) or `model` (the model gateway)', default: '`agent`', example: 'agent', 
    read: (p) => p.oneOf('CHAT_MODE', ['agent', 'model'] as const, 'agent'), public: (mode) => ({ mode }),
  }),
  gatewayBaseUrl: setting({ env: 'GATEWAY_BASE_URL', group, doc: 'gateway host', default: '`UPSTREAM_BASE_URL`', read: (p) => noSlash(p.url('GATEWAY_BASE_URL')) }),
  gatewayApiKey: setting({
    env: 'GATEWAY_API_KEY', group, doc: 'workspace or personal key of the gateway', default: 'required in model mode', secret: true,
    read: (p, mode) => (modelNeeded(mode) ? p.string('GATEWAY_API_KEY') : p.string('GATEWAY_API_KEY', '')),
  }),
  gatewayRegion: setting({
    env: 'GATEWAY_REGION', group, doc: '`eu` (`/api/eu/v1`) or `global` (`/api/v1`)', default: '`eu`', example: 'eu',
    read: (p) => p.oneOf('GATEWAY_REGION', ['eu', 'global'] as const, 'eu'),
  }),
  gatewayModel: setting({
    env: 'GATEWAY_MODEL', group, doc: '`<provider>/<model>`; the server refuses to start when the region does not list it', default: 'required in model mode',
    read: (p, mode) => (modelNeeded(mode) ? p.string('GATEWAY_MODEL') : p.string('GATEWAY_MODEL', 'mistral/mistral-small')),
  }),
  gatewaySystemPrompt: setting({ env: 'GATEWAY_SYSTEM_PROMPT', group, doc: 'system message of every model turn', default: 'empty', read: (p) => p.string('GATEWAY_SYSTEM_PROMPT', '') }),
  gatewayMaxHistory: setting({
    env: 'GATEWAY_MAX_HISTORY', group, doc: 'earlier messages sent with each turn (1–500)', default: '`20`', example: '20',
    read: (p) => p.int('GATEWAY_MAX_HISTORY', 20, 1, 500),
  }),
  gatewayMaxTokens: setting({
    env: 'GATEWAY_MAX_TOKENS', group, doc: 'longest reply, in tokens (1–100000)', default: '`1024`', example: '1024',
    read: (p) => p.int('GATEWAY_MAX_TOKENS', 1024, 1, 100_000),
  }),
  upstreamTimeoutMs: setting({
    env: 'UPSTREAM_TIMEOUT_MS', group, doc: 'per attempt, for every call to the service or gateway (100–300000)', default: '`10000`', example: '10000',
    read: (p) => p.int('UPSTREAM_TIMEOUT_MS', 10_000, 100, 300_000),
  }),
  upstreamRetries: setting({
    env: 'UPSTREAM_RETRIES', group, doc: 'retries after the first attempt (0–10)', default: '`3`', example: '3',
    read: (p) => p.int('UPSTREAM_RETRIES', 3, 0, 10),
  }),
};

/** Model mode against a real gateway: its key and model must be chosen. */
function modelNeeded(mode: { chatMode: string; simulator: boolean }): boolean {
  return mode.chatMode === 'model' && !mode.simulator;
}


function readWebhookSecrets(p: Parser, needed: boolean): string[] {
  const secrets = p.list('WEBHOOK_SECRET', needed ? undefined : [randomBytes(32).toString('base64url')]);
  if (secrets.some((s) => s.length < MIN_WEBHOOK_SECRET_LENGTH)) {
    p.report(`WEBHOOK_SECRET must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters (each one, during a rotation): a short secret can be guessed from one signed webhook`);
  }
  return secrets;
}

function readUserVariables(p: Parser): string[] {
  const names = p.list('USER_VARIABLES', []);
  refuseVerifiedNames(p, 'USER_VARIABLES', names);
  return names;
}

function readLocaleVariable(p: Parser): string | undefined {
  const name = p.optional('LOCALE_VARIABLE');
  if (name === undefined) return undefined;
  if (!SETTING_VARIABLE_NAME.test(name)) p.report('LOCALE_VARIABLE must be a variable name of letters, digits and _, like locale');
  else refuseVerifiedNames(p, 'LOCALE_VARIABLE', [name]);
  return name;
}
