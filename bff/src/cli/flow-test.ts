import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { HttpFlowClient } from '../adapters/http-flows.js';
import { AppError, UpstreamError } from '../errors.js';
import type { IncomingWebhookDto } from '../ports/flows.js';
import type { VariableValue } from '../ports/upstream.js';

const USAGE = `Usage: npx tsx bff/src/cli/flow-test.ts <userId> [--session <id>] [--var name=value ...] [--base <url>]
Sends the sample payload (IncomingWebhookDto) to POST {base}/webhook/test/{userId}: the dashboard
user receives it over WebSocket, which checks a flow's configuration. Prints the jobId.
  --session <id>     a positive integer sessionId to include
  --var name=value   sets a variable in "data" (true/false and numbers are typed); repeatable
  --base <url>       the host (default UPSTREAM_BASE_URL); the demo and dev hosts serve the same path`;

const SAMPLE_FILE = 'Hello, flow!';

/** The sample payload: a few typed variables and one file item, as the service documents them. */
export function samplePayload(sessionId?: number, variables: Record<string, VariableValue> = {}): IncomingWebhookDto {
  const payload: IncomingWebhookDto = {
    data: { customerName: 'Ada Lovelace', orderTotal: 42.5, express: true, ...variables },
    files: [
      {
        name: 'sample.txt',
        mimeType: 'text/plain',
        size: Buffer.byteLength(SAMPLE_FILE),
        fileUri: 'sample://parley/sample.txt',
        md5: createHash('md5').update(SAMPLE_FILE).digest('hex'),
      },
    ],
  };
  if (sessionId !== undefined) payload.sessionId = sessionId;
  return payload;
}

/** Runs the flow-test CLI with `argv` (without node and script) and returns the exit code. */
export async function run(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  io = { out: (t: string) => void process.stdout.write(t), err: (t: string) => void process.stderr.write(t) },
): Promise<number> {
  let userId: string | undefined;
  let sessionId: number | undefined;
  let base = env.UPSTREAM_BASE_URL?.trim();
  const variables: Record<string, VariableValue> = {};
  const usage = (problem: string) => (io.err(`flow-test: ${problem}\n${USAGE}\n`), 2);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => argv[++i];
    if (a === '-h' || a === '--help') return (io.out(`${USAGE}\n`), 0);
    if (a === '--session') {
      const v = value();
      if (!v || !/^\d{1,15}$/.test(v) || Number(v) <= 0) return usage('--session needs a positive integer');
      sessionId = Number(v);
    } else if (a === '--var') {
      const m = /^([^=]{1,100})=(.*)$/s.exec(value() ?? '');
      if (!m) return usage('--var needs name=value');
      variables[m[1]!] = typed(m[2]!);
    } else if (a === '--base') {
      base = value();
    } else if (a.startsWith('-')) {
      return usage(`unknown option ${a}`);
    } else if (userId === undefined) {
      userId = a;
    } else {
      return usage(`unexpected argument "${a}"`);
    }
  }
  if (!userId) return usage('give the dashboard userId that should receive the sample');
  if (!base || !/^https?:\/\//.test(base)) return usage('set UPSTREAM_BASE_URL (or --base) to the service host');

  const client = new HttpFlowClient({ baseUrl: base, policy: { retries: 2, timeoutMs: 15_000 } });
  try {
    const { jobId } = await client.testFlow(userId, samplePayload(sessionId, variables));
    io.out(`jobId: ${jobId}\n`);
    return 0;
  } catch (e) {
    const detail = e instanceof UpstreamError && e.upstreamStatus ? ` (status ${e.upstreamStatus})` : '';
    io.err(`flow-test: ${e instanceof Error ? e.message : String(e)}${detail}${e instanceof AppError ? ` [${e.code}]` : ''}\n`);
    return 1;
  }
}

function typed(raw: string): VariableValue {
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?\d+(\.\d+)?$/.test(raw) && Number.isFinite(Number(raw))) return Number(raw);
  return raw;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run(process.argv.slice(2)).then((code) => process.exit(code));
}
