import { createHash, randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { errorResponse, readJsonObject, SimError } from './errors.js';
import { sameOriginOnly } from './same-origin.js';
import type { VariableValue } from './types.js';

export interface FlowSimulatorOptions {
  /** Flow name → webhook token; any other token answers 404. */
  tokens: Record<string, string>;
  /** Delivers a flow's result into a conversation (in the demo: a signed `message.added` webhook). */
  postResult: (sessionId: number, text: string) => void;
  random?: () => number;
  /** How long a flow "runs" before its result is posted (default 300 ms). */
  resultDelayMs?: number;
}

/** A file item as the service builds it from a multipart upload (`IncomingWebhookDto.files`). */
export interface FlowFileItem {
  name: string;
  mimeType: string;
  size: number;
  fileUri: string;
  md5: string;
}

/** What one trigger delivered; tests read it through `GET /__flows/jobs/:jobId`. */
export interface FlowJobRecord {
  jobId: string;
  kind: 'trigger' | 'test';
  /** Name of the triggered flow (never its token). */
  flow?: string;
  /** Dashboard user of a test delivery. */
  userId?: string;
  contentType: 'json' | 'multipart';
  sessionId?: number;
  variables: Record<string, VariableValue>;
  files: FlowFileItem[];
  receivedAt: number;
}

const MAX_JOBS = 200;

/**
 * Simulator of flow triggers (area C): `POST /webhook/:token` (JSON `IncomingWebhookDto`, or
 * multipart `variables` + `files` + `sessionId`, each file hashed with MD5 like the service's file
 * items), `POST /webhook/test/:userId`, and after a short "run" the result is posted back into
 * the conversation. `GET /__flows/jobs[/:jobId]` shows what each job received.
 */
export function createFlowSimulator(options: FlowSimulatorOptions): Hono {
  const random = options.random ?? Math.random;
  const flowByToken = new Map(Object.entries(options.tokens).map(([name, token]) => [token, name]));
  const jobs = new Map<string, FlowJobRecord>();
  const newJobId = () => `job_${Array.from({ length: 4 }, () => Math.floor(random() * 0x10000).toString(16).padStart(4, '0')).join('')}`;

  const app = new Hono();
  app.onError(errorResponse);
  app.use('/__flows/*', sameOriginOnly);

  app.get('/__flows/jobs', (c) => c.json({ jobs: [...jobs.values()] }));
  app.get('/__flows/jobs/:jobId', (c) => {
    const job = jobs.get(c.req.param('jobId'));
    return job ? c.json(job) : c.json({ error: { code: 'not_found', message: 'No such job' } }, 404);
  });
  app.delete('/__flows/jobs', (c) => (jobs.clear(), c.json({ jobs: [] })));

  app.post('/webhook/test/:userId', async (c) => {
    const dto = await readDto(c, newJobId());
    const job: FlowJobRecord = { ...dto, kind: 'test', userId: c.req.param('userId') };
    remember(job);
    return c.json({ jobId: job.jobId }, 200);
  });

  app.post('/webhook/:token', async (c) => {
    const flow = flowByToken.get(c.req.param('token'));
    if (flow === undefined) throw new SimError(404, 'webhook_not_found', 'No flow has this webhook token');
    const job: FlowJobRecord = { ...(await readDto(c, newJobId())), kind: 'trigger', flow };
    remember(job);
    if (job.sessionId !== undefined) {
      const sessionId = job.sessionId;
      setTimeout(() => {
        try {
          options.postResult(sessionId, resultText(job));
        } catch {
          // the demo's delivery failing must not break the simulator
        }
      }, options.resultDelayMs ?? 300).unref();
    }
    return c.json({ jobId: job.jobId }, 200);
  });

  return app;

  function remember(job: FlowJobRecord): void {
    jobs.set(job.jobId, job);
    if (jobs.size > MAX_JOBS) jobs.delete(jobs.keys().next().value!);
  }
}

/** Reads the JSON or multipart trigger body into a job record (without `kind`). */
async function readDto(c: Context, jobId: string): Promise<Omit<FlowJobRecord, 'kind'>> {
  const base = { jobId, receivedAt: Date.now() };
  if (/^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) {
    let form: FormData;
    try {
      form = await c.req.raw.formData();
    } catch {
      throw new SimError(400, 'invalid_request', 'The multipart body could not be read');
    }
    const variablesText = form.get('variables');
    let variables: Record<string, VariableValue> = {};
    if (variablesText !== null) {
      if (typeof variablesText !== 'string') throw new SimError(400, 'invalid_request', '"variables" must be JSON text');
      let parsed: unknown;
      try {
        parsed = JSON.parse(variablesText);
      } catch {
        throw new SimError(400, 'invalid_json', '"variables" must be JSON text');
      }
      variables = checkData(parsed);
    }
    const files: FlowFileItem[] = [];
    for (const part of form.getAll('files')) {
      if (typeof part === 'string') throw new SimError(400, 'invalid_request', '"files" parts must be files');
      const bytes = new Uint8Array(await part.arrayBuffer());
      const name = part.name || 'file';
      files.push({
        name,
        mimeType: part.type || 'application/octet-stream',
        size: bytes.byteLength,
        fileUri: `sim://flows/${jobId}/${files.length}-${encodeURIComponent(name)}`,
        md5: createHash('md5').update(bytes).digest('hex'),
      });
    }
    const rawSession = form.get('sessionId');
    const sessionId = rawSession === null ? undefined : checkSessionId(typeof rawSession === 'string' && /^\d+$/.test(rawSession) ? Number(rawSession) : rawSession);
    return { ...base, contentType: 'multipart', variables, files, ...(sessionId !== undefined ? { sessionId } : {}) };
  }
  const body = await readJsonObject(c);
  const sessionId = body.sessionId === undefined ? undefined : checkSessionId(body.sessionId);
  const files = body.files === undefined ? [] : checkFileItems(body.files);
  return { ...base, contentType: 'json', variables: checkData(body.data ?? {}), files, ...(sessionId !== undefined ? { sessionId } : {}) };
}

function checkSessionId(v: unknown): number {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  throw new SimError(400, 'invalid_request', '"sessionId" must be a positive integer');
}

function checkData(v: unknown): Record<string, VariableValue> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new SimError(400, 'invalid_request', '"data" must be an object');
  for (const [k, x] of Object.entries(v)) {
    if (!(typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x)))) {
      throw new SimError(400, 'invalid_request', `"${k}" must be a string, a number or a boolean`);
    }
  }
  return { ...(v as Record<string, VariableValue>) };
}

function checkFileItems(v: unknown): FlowFileItem[] {
  const ok = (f: unknown): f is FlowFileItem => {
    const r = f as Record<string, unknown>;
    return typeof f === 'object' && f !== null && ['name', 'mimeType', 'fileUri', 'md5'].every((k) => typeof r[k] === 'string') && typeof r.size === 'number';
  };
  if (!Array.isArray(v) || !v.every(ok)) throw new SimError(400, 'invalid_request', '"files" must be file items {name, mimeType, size, fileUri, md5}');
  return v.map(({ name, mimeType, size, fileUri, md5 }) => ({ name, mimeType, size, fileUri, md5 }));
}

/**
 * The flow's scripted result, e.g. `Received 2 files: a.pdf (12.0 KB), b.png (3.1 KB).`: what a
 * customer reads, so names and sizes, no checksums (the job record keeps each file's md5).
 */
function resultText(job: FlowJobRecord): string {
  const vars = Object.entries(job.variables).map(([k, v]) => `${k}=${String(v)}`);
  const withVars = vars.length > 0 ? ` Variables: ${vars.join(', ')}.` : '';
  if (job.files.length === 0) return `Flow "${job.flow}" finished (job ${job.jobId}).${withVars}`;
  const list = job.files.map((f) => `${f.name} (${humanSize(f.size)})`).join(', ');
  return `Received ${job.files.length} file${job.files.length === 1 ? '' : 's'}: ${list}.${withVars}`;
}

function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
