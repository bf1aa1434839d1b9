import { pathToFileURL } from 'node:url';
import { HttpGateway, type ModelInfo } from '../adapters/http-gateway.js';
import { AppError, UpstreamError } from '../errors.js';
import type { ChatTurn } from '../ports/gateway.js';

const USAGE = `Usage: npx tsx bff/src/cli/gateway.ts <command> [--region eu|global] [--model <provider>/<model>]
  models          list the models callable in the region, with their prices
  chat "text"     send one message and stream the reply to stdout
  embed "text"    print the embedding's dimension and first values
Environment: GATEWAY_BASE_URL (or UPSTREAM_BASE_URL), GATEWAY_API_KEY, GATEWAY_REGION (default eu),
GATEWAY_MODEL (chat, embed), GATEWAY_SYSTEM_PROMPT, GATEWAY_MAX_TOKENS.`;

type Env = Record<string, string | undefined>;
interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs the gateway CLI with `argv` (without node and script) and returns the exit code. */
export async function run(argv: string[], env: Env = process.env, io: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) }): Promise<number> {
  const fail = (message: string, code = 1) => (io.err(`gateway: ${message}\n`), code);
  let args: { command?: string; text?: string; region?: string; model?: string };
  try {
    args = parseArgs(argv);
  } catch (e) {
    io.err(`${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (!args.command || args.command === 'help' || !['models', 'chat', 'embed'].includes(args.command)) {
    io.err(`${USAGE}\n`);
    return args.command === 'help' ? 0 : 2;
  }
  if (args.command !== 'models' && !args.text?.trim()) return fail(`"${args.command}" needs a text, e.g. ${args.command} "Hello"`, 2);

  const baseUrl = (env.GATEWAY_BASE_URL || env.UPSTREAM_BASE_URL)?.trim();
  if (!baseUrl || !/^https?:\/\//.test(baseUrl)) return fail('set GATEWAY_BASE_URL (or UPSTREAM_BASE_URL) to the service host, e.g. https://api.example.com');
  const apiKey = env.GATEWAY_API_KEY?.trim();
  if (!apiKey) return fail('set GATEWAY_API_KEY to a workspace or personal API key');
  const region = args.region ?? env.GATEWAY_REGION?.trim() ?? 'eu';
  if (region !== 'eu' && region !== 'global') return fail('GATEWAY_REGION (or --region) must be eu or global');
  const model = args.model ?? env.GATEWAY_MODEL?.trim() ?? '';
  if (args.command !== 'models' && !model) return fail('set GATEWAY_MODEL (or --model) to a <provider>/<model> from the "models" command');
  const maxTokens = env.GATEWAY_MAX_TOKENS ? Number(env.GATEWAY_MAX_TOKENS) : undefined;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) return fail('GATEWAY_MAX_TOKENS must be a positive whole number');

  const gateway = new HttpGateway({ baseUrl, region, apiKey, model, policy: { retries: 2, timeoutMs: 30_000 } });
  try {
    if (args.command === 'models') {
      const models = await gateway.listModels();
      io.out(`${models.length} models in region ${region} (${gateway.apiBase}/models)\n`);
      const width = Math.max(0, ...models.map((m) => m.id.length));
      for (const m of models) io.out(`${m.id.padEnd(width)}  ${describe(m)}\n`);
    } else if (args.command === 'chat') {
      const messages: ChatTurn[] = [];
      if (env.GATEWAY_SYSTEM_PROMPT?.trim()) messages.push({ role: 'system', content: env.GATEWAY_SYSTEM_PROMPT.trim() });
      messages.push({ role: 'user', content: args.text!.trim() });
      for await (const delta of gateway.streamChatCompletion({ messages, maxTokens })) io.out(delta);
      io.out('\n');
    } else {
      const [vector] = await gateway.embeddings(args.text!.trim());
      io.out(`dimension ${vector!.length}\nfirst values ${vector!.slice(0, 8).map((x) => x.toFixed(6)).join(' ')}\n`);
    }
    return 0;
  } catch (e) {
    if (e instanceof UpstreamError) return fail(`${e.message}${e.upstreamStatus ? ` (status ${e.upstreamStatus})` : ''} [${e.code}]`);
    if (e instanceof AppError) return fail(`${e.message} [${e.code}]`);
    return fail(e instanceof Error ? e.message : String(e));
  }
}

function parseArgs(argv: string[]): { command?: string; text?: string; region?: string; model?: string } {
  const out: { command?: string; text?: string; region?: string; model?: string } = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--region' || a === '--model') {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      out[a === '--region' ? 'region' : 'model'] = v;
    } else if (a === '-h' || a === '--help') {
      rest.unshift('help');
    } else if (a.startsWith('--')) {
      throw new Error(`Unknown option ${a}`);
    } else {
      rest.push(a);
    }
  }
  out.command = rest[0];
  if (rest.length > 1) out.text = rest.slice(1).join(' ');
  return out;
}

/** Prices and details as the gateway sent them, e.g. `input=0.22 output=0.66 currency=EUR`. */
function describe(m: ModelInfo): string {
  const prices = Object.entries(m.prices).map(([k, v]) => `${k}=${v}`);
  const details = Object.entries(m.details).map(([k, v]) => `${k}=${v}`);
  return [prices.length > 0 ? prices.join(' ') : '(no price listed)', details.length > 0 ? `[${details.join(' ')}]` : ''].filter(Boolean).join('  ');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run(process.argv.slice(2)).then((code) => process.exit(code));
}
