import { Hono, type Context } from 'hono';
import type { SimulatorEngine } from './engine.js';
import { operatorEmail, SendBody, simBody } from './bodies.js';
import { readJsonObject, SimError } from './errors.js';
import type { FaultInjector } from './faults.js';
import type { StoredMessage, VariableValue } from './types.js';

const ESCALATION_EMAIL_MESSAGE = '"operatorEmail" must be an e-mail address when escalating';
const ESCALATION_EMAIL = operatorEmail(ESCALATION_EMAIL_MESSAGE);

export interface RestOptions {
  accessToken: string;
  botKey: string;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/** The service's REST paths of area B (bearer token, bot key in the send path), with fault injection first. */
export function createRestRoutes(engine: SimulatorEngine, faults: FaultInjector, o: RestOptions): Hono {
  const app = new Hono();

  // Faults come before auth: an overloaded gateway answers 503/429 whatever the credentials.
  app.use('/v1/*', faults.middleware());
  app.use('/v1/*', async (c, next) => {
    if (c.req.header('authorization') !== `Bearer ${o.accessToken}`) {
      throw new SimError(401, 'unauthorized', 'Missing or invalid access token');
    }
    await next();
  });

  const send = async (c: Context): Promise<Response> => {
    if (c.req.param('botKey') !== o.botKey) throw new SimError(404, 'bot_not_found', 'No agent with this bot key');
    const result = await engine.send(simBody(SendBody, await readJsonObject(c)));
    // Synchronous mode's body is "not shown" in the seed: we answer {session, messages:[…]}.
    return c.json(result.messages ? { session: result.session, messages: result.messages.map(historyItem) } : { session: result.session });
  };
  app.post('/v1/bots/:botKey/messages/', send);
  app.post('/v1/bots/:botKey/messages', send);

  app.get('/v1/conversations/:id/messages', (c) => {
    const conversation = engine.get(c.req.param('id'));
    const limit = intParam(c.req.query('limit'), 'limit', DEFAULT_LIMIT, 1, MAX_LIMIT);
    const offset = intParam(c.req.query('offset'), 'offset', 0, 0, 1_000_000);
    return c.json({ messages: engine.store.page(conversation, limit, offset).map(historyItem) });
  });

  app.patch('/v1/conversations/:id/user', async (c) => {
    const conversation = engine.get(c.req.param('id'));
    engine.setVariables(conversation, variablesFrom(await readJsonObject(c)));
    return c.json({});
  });

  app.patch('/v1/conversations/:id', async (c) => {
    const conversation = engine.get(c.req.param('id'));
    const body = await readJsonObject(c);
    if (body.state === 'escalated') {
      const email = simBody(ESCALATION_EMAIL, body.operatorEmail);
      if (email === undefined) throw new SimError(400, 'invalid_request', ESCALATION_EMAIL_MESSAGE);
      engine.escalate(conversation, email);
    } else if (body.state === 'archived' || body.archived === true) {
      // The seed does not show the archive body; both plausible forms are accepted.
      engine.archive(conversation, 'api');
    } else {
      throw new SimError(400, 'invalid_request', 'Send {"state":"escalated","operatorEmail":…}, {"state":"archived"} or {"archived":true}');
    }
    return c.json({ session: String(conversation.id), state: conversation.state });
  });

  return app;
}

/**
 * A history item: `{messageId, message, hbo, createdAt}`. Operators are not named in history, as the
 * service's own history does not name them (only `message.added` events carry `username`): the
 * BFF must remember who wrote what.
 */
function historyItem(m: StoredMessage): Record<string, unknown> {
  return { messageId: m.messageId, message: m.message, hbo: m.hbo, createdAt: m.createdAt };
}

function intParam(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw new SimError(400, 'invalid_request', `"${name}" must be an integer from ${min} to ${max}`);
  return n;
}

function variablesFrom(body: Record<string, unknown>): Record<string, VariableValue> {
  const out: Record<string, VariableValue> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name.trim() === '' || name.length > 100) throw new SimError(400, 'invalid_request', 'Variable names must have 1 to 100 characters');
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new SimError(400, 'invalid_request', `Variable "${name}" must be a string, number or boolean`);
    }
    out[name] = value;
  }
  return out;
}
