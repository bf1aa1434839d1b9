import { Hono } from 'hono';
import * as v from 'valibot';
import { summarize } from './conversations.js';
import { OPERATOR_DOMAIN, type OperatorInput, type SimulatorEngine } from './engine.js';
import { isEmail, operatorEmail, OperatorMessageBody, optionalString, simBody } from './bodies.js';
import { readJsonObject, SimError } from './errors.js';
import { sameOriginOnly } from './same-origin.js';
import type { WebhookDispatcher } from './webhooks.js';

/**
 * POST /operator/conversations/{id}/escalate: `{operatorEmail?, name?}`, both optional (the console
 * sends the operator's username; the address is then that operator's own, see operatorAddress).
 */
const TakeOverBody = v.object({ operatorEmail: operatorEmail('"operatorEmail" must be an e-mail address'), name: optionalString('name', 60) });

/** Username used when the console sends no `name` (the service knows operators by username). */
export const DEFAULT_OPERATOR_NAME = 'mara';

/** The username an operator action runs as: the one given, else the default operator's. */
export const operatorNameOf = (name: string | undefined): string => name?.trim() || DEFAULT_OPERATOR_NAME;

/**
 * The address of the operator known by `username`: the service escalates to a person by e-mail,
 * the console signs in by username. A username that is an address (OPERATOR_PROFILES keys may be
 * either) is its own; others get one on the shop's domain, e.g. `theo@nimbus-outdoor.example`.
 */
export function operatorAddress(username: string): string {
  const name = username.trim().toLowerCase();
  return isEmail(name) ? name : `${name.replace(/[\s@]+/g, '.')}@${OPERATOR_DOMAIN}`;
}

/**
 * The human operator's side (the service's dashboard, in miniature) for the demo console.
 * DEMO ONLY: these routes take no bearer token (a foreign site's page is refused: sameOriginOnly).
 * They exist only in simulator mode and never touch a real service; input is still validated with
 * clear `{error:{code,message}}` answers.
 */
export function createOperatorRoutes(engine: SimulatorEngine, dispatcher: WebhookDispatcher): Hono {
  const app = new Hono();
  app.use('/operator/*', sameOriginOnly);

  app.get('/operator/conversations', (c) => c.json({ conversations: engine.store.list().map(summarize) }));

  app.get('/operator/conversations/:id', (c) => {
    const conversation = engine.get(c.req.param('id'));
    // Opening a conversation in the console counts as reading it.
    conversation.unread = 0;
    return c.json({
      conversation: summarize(conversation),
      messages: conversation.messages,
      variables: conversation.variables,
      deliveries: dispatcher.deliveries({ conversationId: conversation.id, limit: 50 }),
    });
  });

  app.post('/operator/conversations/:id/messages', async (c) => {
    const conversation = engine.get(c.req.param('id'));
    const message = engine.operatorMessage(conversation, operatorInput(await readJsonObject(c)));
    return c.json({ message }, 201);
  });

  app.post('/operator/conversations/:id/escalate', async (c) => {
    const conversation = engine.get(c.req.param('id'));
    // The body is optional here (the console sends the operator's `name`; a script may send nothing).
    const body = (await c.req.text()).trim() === '' ? {} : await readJsonObject(c);
    const taken = simBody(TakeOverBody, body);
    const name = operatorNameOf(taken.name);
    // Escalated to the operator who took it, not the team's queue: the service's event and the
    // console's view then name the same person.
    engine.escalate(conversation, taken.operatorEmail ?? operatorAddress(name), name, 'operator');
    return c.json({ conversation: summarize(conversation) });
  });

  app.post('/operator/conversations/:id/archive', (c) => {
    const conversation = engine.get(c.req.param('id'));
    engine.archive(conversation, 'operator');
    return c.json({ conversation: summarize(conversation) });
  });

  app.get('/operator/deliveries', (c) => {
    const raw = c.req.query('limit');
    const limit = raw === undefined ? 100 : Number(raw);
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= 500)) {
      throw new SimError(400, 'invalid_request', '"limit" must be an integer from 1 to 500');
    }
    return c.json({ deliveries: dispatcher.deliveries({ limit }) });
  });

  return app;
}

/** Validates `{text, name?}` or `{badge, name?}` (OperatorMessageBody). */
export function operatorInput(body: Record<string, unknown>): OperatorInput {
  const { name, text, badge } = simBody(OperatorMessageBody, body);
  const who = operatorNameOf(name);
  return badge !== undefined ? { name: who, badge } : { name: who, text: text!.trim() };
}
