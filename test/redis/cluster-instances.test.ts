import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, postWebhook } from '../helpers/bff.js';
import type { SpawnedServer } from '../helpers/server.js';
import { conversation, drained, message, nextText, post, startInstances, stream, texts, until } from './cluster.js';
import { startRedisCluster, type TestRedisCluster } from './redis-cluster.js';
import { skipRedisTests } from './redis-server.js';

// Two BFF processes of one deployment on a three-master Redis Cluster (REDIS_CLUSTER_NODES).
describe.skipIf(skipRedisTests)('two BFF processes on a Redis Cluster', () => {
  let cluster: TestRedisCluster;
  let a: SpawnedServer;
  let b: SpawnedServer;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    // REDIS_URL left empty: the cluster's seed nodes replace it.
    [a, b] = (await startInstances('', 2, { REDIS_CLUSTER_NODES: cluster.nodeList })) as [SpawnedServer, SpawnedServer];
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await cluster?.stop();
  });

  /** A conversation whose keys live on the master `wanted` says yes to. */
  async function conversationWhere(wanted: (port: number) => boolean) {
    for (;;) {
      const c = await conversation();
      const port = await cluster.masterOf(`parley:log:{${c.id}}`);
      if (wanted(port)) return { ...c, port };
    }
  }

  it('delivers webhooks accepted by A to streams on B for conversations on every master, in order', async () => {
    const conversations = await Promise.all(cluster.nodes.map(({ port }) => conversationWhere((owner) => owner === port)));
    const streams = await Promise.all(conversations.map((c) => stream(b.url, c.token)));
    for (const label of ['one', 'two', 'three']) for (const c of conversations) expect(await post(a.url, c.id, label)).toBe(200);
    for (const sse of streams) {
      await nextText(sse, 'three');
      expect(texts(sse.events)).toEqual(['one', 'two', 'three']);
      expect(sse.events.filter((e) => e.event === 'message').map((e) => Number(e.id))).toEqual([1, 2, 3]);
      sse.close();
    }
  });

  it('stores a duplicate storm across both instances once', async () => {
    const c = await conversation();
    const [onA, onB] = await Promise.all([stream(a.url, c.token), stream(b.url, c.token)]);
    const storm = await Promise.all(Array.from({ length: 16 }, (_, n) => postWebhook((n % 2 ? a : b).url, message(c.id, 'storm'))));
    expect(storm.map((r) => r.status)).toEqual(Array(16).fill(200));
    expect(storm.filter((r) => !r.body.duplicate)).toHaveLength(1);
    expect(await post(b.url, c.id, 'marker')).toBe(200);
    for (const sse of [onA, onB]) {
      await nextText(sse, 'marker');
      expect(texts(sse.events)).toEqual(['storm', 'marker']);
      sse.close();
    }
  });

  it('a master killed: its conversations answer 503 and lose what it stored, the others carry on; back empty, streams get new events once', async () => {
    const victim = await conversationWhere(() => true);
    const survivor = await conversationWhere((port) => port !== victim.port);
    const [victimStream, survivorStream] = await Promise.all([stream(b.url, victim.token), stream(b.url, survivor.token)]);
    for (const c of [victim, survivor]) expect(await post(a.url, c.id, 'before')).toBe(200);
    await Promise.all([nextText(victimStream, 'before'), nextText(survivorStream, 'before')]);

    await cluster.kill(victim.port);
    // The service gets 503 for the dead master's conversations and retries: nothing it sends is acknowledged and lost.
    await until('503 from the dead master', async () => (await post(a.url, victim.id, 'during')) === 503, 10_000);
    // The other masters carry on, streams on B included, and instances stay ready.
    expect(await post(a.url, survivor.id, 'during')).toBe(200);
    await nextText(survivorStream, 'during');
    expect((await call(a.url, 'GET', '/readyz')).status).toBe(200);

    await cluster.restart(victim.port); // empty: no replica, no persistence
    // The service's retry is stored once the master is back.
    await until('master back', async () => (await post(a.url, victim.id, 'during')) === 200, 15_000);
    const after = await nextText(victimStream, 'during', 10_000);
    // Ids started over on that master; the stream gets the new event (id 1) all the same, nothing twice.
    expect(Number(after.id)).toBe(1);
    expect(await post(a.url, survivor.id, 'after')).toBe(200);
    await nextText(survivorStream, 'after');
    expect(texts(await drained(victimStream, a.url, victim.id))).toEqual(['before', 'during']);
    expect(texts(await drained(survivorStream, a.url, survivor.id))).toEqual(['before', 'during', 'after']);

    // What the dead master had stored is gone: a fresh stream replays only what came after.
    const fresh = await stream(a.url, victim.token);
    await nextText(fresh, 'during');
    expect(texts(await drained(fresh, a.url, victim.id)).filter((t) => !t.startsWith('marker-'))).toEqual(['during']);
    for (const sse of [victimStream, survivorStream, fresh]) sse.close();
  });
});
