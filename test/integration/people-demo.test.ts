// The demo as a visitor meets its people: named operators with pictures, the bot's name, starters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { openSse } from '../helpers/sse.js';
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

  it("history names each operator as the live event did, also once the event has left the BFF's retained log", async () => {
    const small = await startBff({ ESCALATION_OPERATOR_EMAIL: 'ops@nimbus.example', EVENT_RETENTION_COUNT: '10' });
    try {
      const session = (await call(small.url, 'POST', '/api/session', { body: { text: 'Where is my parcel?' } })).body;
      expect((await call(small.url, 'POST', '/api/escalate', { token: session.token })).status).toBe(202);
      const say = (text: string, name: string) =>
        fetch(`${small.url}/sim/operator/conversations/${session.sessionId}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text, name }) });
      expect((await say('Hi, Theo here.', 'theo')).status).toBe(201);
      for (let i = 1; i <= 12; i++) expect((await say(`Mara, note ${i}`, 'mara')).status).toBe(201);
      let items: Array<{ text?: string; author?: unknown; operatorName?: string }> = [];
      await until('every reply is in the history', async () => {
        items = (await call(small.url, 'GET', '/api/messages?limit=50', { token: session.token })).body.items;
        return items.some((m) => m.text === 'Mara, note 12');
      });
      // Theo's event is gone from the retained log (ten events kept), its author is not.
      const sse = await openSse(`${small.url}/api/events?token=${session.token}`);
      await sse.next((e) => e.data.includes('Mara, note 12'));
      expect(sse.events.some((e) => e.data.includes('Hi, Theo here.'))).toBe(false);
      sse.close();
      const theo = items.find((m) => m.text === 'Hi, Theo here.')!;
      expect(theo.author).toEqual({ kind: 'operator', name: 'Theo Adeyemi', avatarUrl: '/demo/assets/operator-theo.svg' });
      expect(theo.operatorName).toBe('Theo Adeyemi');
      expect(items.find((m) => m.text === 'Mara, note 1')!.author).toEqual({ kind: 'operator', name: 'Mara Lindqvist', avatarUrl: '/demo/assets/operator-mara.svg' });
    } finally {
      await small.stop();
    }
  });

  it('"Talk to a person" before the first message: the conversation starts with a person, and the agent does not answer it first', async () => {
    // An agent that takes a real agent's moment to answer (the demo's default is 5 ms in tests).
    const slow = await startBff({ ESCALATION_OPERATOR_EMAIL: 'ops@nimbus.example', SIM_REPLY_DELAY_MS: '400' });
    try {
      const res = await call(slow.url, 'POST', '/api/session', { body: { text: 'I need a person, please', escalate: true } });
      expect(res.status).toBe(201);
      expect(res.body.state).toBe('escalated');
      // The operator can answer at once: no 409 not_escalated.
      const op = await fetch(`${slow.url}/sim/operator/conversations/${res.body.sessionId}/messages`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Mara here.', name: 'mara' }),
      });
      expect(op.status).toBeLessThan(300);
      await until('the operator is in the history', async () => {
        const items: Array<{ text?: string }> = (await call(slow.url, 'GET', '/api/messages', { token: res.body.token })).body.items;
        return items.some((m) => m.text === 'Mara here.');
      });
      // Without the flag it starts with the agent, as before; its answer, to a later question, shows
      // that the agent's reply time has passed for the first one too.
      const plain = await call(slow.url, 'POST', '/api/session', { body: { text: 'Hello' } });
      expect(plain.body.state).toBeUndefined();
      await until('the agent answered the later question', async () => {
        const later: Array<{ role: string }> = (await call(slow.url, 'GET', '/api/messages', { token: plain.body.token })).body.items;
        return later.some((m) => m.role === 'bot');
      });
      const items: Array<{ role: string; text?: string }> = (await call(slow.url, 'GET', '/api/messages', { token: res.body.token })).body.items;
      expect(items.filter((m) => m.role === 'bot' && !/person|team/i.test(m.text ?? ''))).toEqual([]);
      // A bad flag is a clear 400.
      const bad = await call(slow.url, 'POST', '/api/session', { body: { text: 'Hello', escalate: 'yes' } });
      expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_request']);
    } finally {
      await slow.stop();
    }
  });

  it("the shop greets and offers three starters in each of the widget's languages and is open by default", async () => {
    const config = (await call(bff.url, 'GET', '/api/config')).body;
    expect(Object.keys(config.starters).sort()).toEqual(['ar', 'de', 'en', 'fr', 'he']);
    expect(Object.keys(config.greeting).sort()).toEqual(['ar', 'de', 'en', 'fr', 'he']);
    for (const list of Object.values(config.starters)) expect(list).toHaveLength(3);
    expect(config.starters.en).toEqual(['Where is my order?', 'Which boot size should I pick?', 'Can I return a worn item?']);
    expect(config.handoff).toMatchObject({ open: true, offer: 'always' });
  });
});
