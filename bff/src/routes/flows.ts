import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { archivedError, conversationFacts } from '../chat/conversation-facts.js';
import { sendMessageOnce } from '../chat/send-once.js';
import { maxFormBytes } from '../config.js';
import type { AppDeps, AppEnv } from '../context.js';
import { AppError, NotFoundError, PayloadTooLargeError, ValidationError } from '../errors.js';
import { ByteBudget } from '../lib/byte-budget.js';
import { MAX_FLOW_JSON_BYTES } from '../lib/body-limits.js';
import { readRequestBody } from '../lib/body-read.js';
import { readJsonObject } from '../lib/json-body.js';
import { jsonDepthWithin, MAX_JSON_DEPTH } from '../lib/json-depth.js';
import { checkBody } from '../lib/body.js';
import { checkUploadType } from '../lib/upload-types.js';
import { FlowBody, FlowFields, UploadFields } from '../../../shared/bodies.js';
import { FILE_NAME_MAX, hasUnsafeFileNameChars } from '../../../shared/file-name.js';
import { rateLimit, requireFeature } from '../middleware.js';
import { routeMounter } from './mount.js';
import type { VariableValue } from '../ports/upstream.js';

interface FormInput {
  variables: Record<string, VariableValue>;
  files: File[];
  text?: string;
  clientId?: string;
}

/**
 * `POST /api/flows/:name` and `POST /api/upload` (docs/api.md "Widget-facing routes"): only flows named in FLOW_TOKENS,
 * whose tokens never leave the BFF. Every limit is checked before anything is forwarded, and a
 * body is never read past `MAX_UPLOAD_FILES × MAX_UPLOAD_BYTES` plus a small allowance.
 */
export function flowRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = deps;
  const route = routeMounter(app, deps);
  // A conversation may hold a quarter of the budget, and at least one whole upload: one visitor
  // cannot take the memory other visitors' uploads need.
  const memory = new ByteBudget(config.maxUploadMemoryBytes, Math.max(Math.floor(config.maxUploadMemoryBytes / 4), maxFormBytes(config.maxUploadFiles, config.maxUploadBytes)));
  /**
   * A multipart request holds its bytes as they arrive until it is answered: what a client only
   * declares holds nothing, and a body that stalls is cut after BODY_IDLE_TIMEOUT_MS.
   */
  const holdMemory: MiddlewareHandler<AppEnv> = async (c, next) => {
    const lease = memory.lease(c.get('session').conversationId);
    c.set('uploadMemory', lease);
    try {
      await next();
    } finally {
      lease.release();
    }
  };

  /**
   * A flow's result arrives as a message of the conversation, which a closed one no longer takes:
   * refused as a message would be (409), before the body is read, instead of a 202 whose result is lost.
   */
  const requireOpen: MiddlewareHandler<AppEnv> = async (c, next) => {
    if ((await conversationFacts(deps.store, c.get('session').conversationId)).archived) throw archivedError();
    await next();
  };

  route('POST /api/flows/:name', [requireFeature(deps, 'flows'), requireOpen, holdMemory], async (c) => {
    const name = c.req.param('name');
    // The upload flow takes files the BFF has checked, only through /api/upload (no caller's variables).
    const token = Object.hasOwn(config.flowTokens, name) && name !== config.uploadFlow ? config.flowTokens[name] : undefined;
    if (token === undefined) throw new NotFoundError('This flow does not exist', 'flow_not_found');
    const flows = deps.flows!; // requireFeature: a flow client is there
    const { conversationId } = c.get('session');
    // Flow runs share the conversation's message rate (docs/api.md): each is a call the service acts on.
    await rateLimit(deps, `messages:${conversationId}`, config.rateLimitMessagesPerMin);
    const input: FormInput = isMultipart(c) ? await readForm(c, deps, FlowFields) : await readJsonVariables(c, deps.config.bodyIdleTimeoutMs);
    const { jobId } = await flows.triggerFlow(token, { sessionId: sessionIdOf(conversationId), variables: input.variables, files: input.files });
    return c.json({ jobId }, 202);
  });

  route('POST /api/upload', [requireFeature(deps, 'upload'), requireOpen, holdMemory], async (c) => {
    // requireFeature: the upload flow has a token and a flow client is there.
    const token = config.flowTokens[config.uploadFlow!]!;
    const { conversationId } = c.get('session');
    if (!isMultipart(c)) throw new AppError('unsupported_media_type', 'Send the files as multipart/form-data');
    await rateLimit(deps, `messages:${conversationId}`, config.rateLimitMessagesPerMin);
    const form = await readForm(c, deps, UploadFields);
    if (form.files.length === 0) throw new ValidationError('Attach at least one file as "files"');
    // Before anything is sent on: a refused file sends neither the files nor the words.
    for (const file of form.files) await checkUploadType(file, config.uploadTypes);
    if (form.text !== undefined) {
      // The words come first in the chat, then the flow's answer about the files.
      await rateLimit(deps, `messages:${conversationId}`, config.rateLimitMessagesPerMin);
      await sendMessageOnce(deps, conversationId, { text: form.text, clientId: form.clientId });
    }
    const { jobId } = await deps.flows!.triggerFlow(token, { sessionId: sessionIdOf(conversationId), variables: {}, files: form.files });
    return c.json({ jobId }, 202);
  });

  return app;
}

/** The service wants a positive integer `sessionId`; model-mode ids (`m_…`) are not service conversations. */
function sessionIdOf(conversationId: string): number | undefined {
  if (!/^\d{1,15}$/.test(conversationId)) return undefined;
  const n = Number(conversationId);
  return n > 0 ? n : undefined;
}

function isMultipart(c: Context<AppEnv>): boolean {
  return /^multipart\/form-data\s*;.*boundary=/i.test(c.req.header('content-type') ?? '');
}

async function readJsonVariables(c: Context<AppEnv>, idleMs: number): Promise<FormInput> {
  const { variables } = checkBody(FlowBody, await readJsonObject(c, idleMs, MAX_FLOW_JSON_BYTES));
  return { variables: variables ?? {}, files: [] };
}

/** Reads a bounded multipart body; refuses (413) too many or too large files before anything is forwarded. */
async function readForm(c: Context<AppEnv>, deps: AppDeps, fields: typeof FlowFields | typeof UploadFields): Promise<FormInput> {
  const { maxUploadBytes, maxUploadFiles, bodyIdleTimeoutMs } = deps.config;
  // Refuses a larger Content-Length at once and stops reading a longer body.
  const bytes = await readRequestBody(c, maxFormBytes(maxUploadFiles, maxUploadBytes), { idleMs: bodyIdleTimeoutMs, take: c.get('uploadMemory').take });
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': c.req.header('content-type')! } }).formData();
  } catch {
    throw new ValidationError('The form data could not be read');
  }
  const files: File[] = [];
  // No prototype: a part named "__proto__" is a field like any other (refused as unknown), not a prototype.
  const parts: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of form.entries()) {
    if (name === 'files') {
      if (typeof value === 'string') throw new ValidationError('Each "files" part must be a file');
      files.push(value);
      if (files.length > maxUploadFiles) throw new PayloadTooLargeError(`At most ${maxUploadFiles} files may be sent at once`);
      if (value.size > maxUploadBytes) throw new PayloadTooLargeError(`Each file must be at most ${maxUploadBytes} bytes`);
      if (value.name.length > FILE_NAME_MAX) throw new ValidationError(`File names must be at most ${FILE_NAME_MAX} characters`);
      if (hasUnsafeFileNameChars(value.name)) throw new ValidationError('File names may not hold control characters, direction overrides, / or \\');
      continue;
    }
    if (Object.hasOwn(fields.entries, name) && (typeof value !== 'string' || Object.hasOwn(parts, name))) throw new ValidationError(`"${name}" must be sent once, as text`);
    parts[name] = value;
  }
  // The variables part holds JSON text: bounded and its nesting checked before it is parsed, as a JSON body is.
  if (fields === FlowFields && typeof parts.variables === 'string') checkJsonPart(parts.variables);
  // The text parts by the route's schema (shared/bodies.ts): unknown names, text, clientId, variables.
  return { variables: {}, ...checkBody(fields, parts), files };
}

/** A form's JSON text part, held to a JSON body's rules: at most `MAX_FLOW_JSON_BYTES`, nested at most `MAX_JSON_DEPTH`. */
function checkJsonPart(text: string): void {
  // Measured before it is copied: the part may be as large as the whole form.
  if (Buffer.byteLength(text) > MAX_FLOW_JSON_BYTES) throw new PayloadTooLargeError(`"variables" must be at most ${MAX_FLOW_JSON_BYTES} bytes`);
  if (!jsonDepthWithin(Buffer.from(text))) throw new ValidationError(`"variables" nests objects and arrays more than ${MAX_JSON_DEPTH} deep`);
}
