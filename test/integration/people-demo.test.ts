// The demo as a visitor meets its people: named operators with pictures, the bot's name, starters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { until } from '../helpers/wait.js';

let bff: RunningServer;
beforeAll(async () => {
  bff = await startBff({ ESCALATION_OPERATOR_EMAIL: 'ops@nimbus.example' });
});
afterAll(() => bff.stop());

describe('the demo\'s people', () => {
  it('an operator\'s reply carries the profile\'s name and picture, in the stream\'s history and in the console\'s list', async () => {
    const session = (await call(bff.url, 'POST', '/api/session', { body: { text: 'Where is my parcel?' } })).body;
    expect((await call(bff.url, 'POST', '/api/escalate', { token: session.token })).status).toBe(202);
    const op = await fetch(`${bff.url}/sim/operator/conversations/${session.sessionId}/messages`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Hi, Theo here.', name: 'theo' }),
    });
    expect(op.status).toBeLessThan(300);
    let history: Array<{ text?: string; author?: unknown; role: string }> = [];
    await until('the reply is in the history', async () => {
      history = (await call(bff.url, 'GET', '/api/messages', { token: session.token })).body.items;
      return history.some((m) => m.text === 'Hi, Theo here.');
    });
    expect(history.find((m) => m.text === 'Hi, Theo here.')!.author).toEqual({ kind: 'operator', name: 'Theo Adeyemi', avatarUrl: '/demo/assets/operator-theo.svg' });
    expect(history.find((m) => m.role === 'bot')!.author).toMatchObject({ kind: 'bot', name: 'Juniper' });
    expect((await call(bff.url, 'GET', '/demo/operators.json')).body).toMatchObject({ theo: { name: 'Theo Adeyemi' }, mara: { name: 'Mara Lindqvist' } });
    expect((await fetch(`${bff.url}/demo/assets/operator-theo.svg`)).status).toBe(200);
  });

  it('the shop offers three starters and is open by default', async () => {
    const config = (await call(bff.url, 'GET', '/api/config')).body;
    expect(config.starters).toHaveLength(3);
    expect(config.handoff).toMatchObject({ open: true, offer: 'always' });
  });
});
