import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from 'ioredis';
import { assertRedisServerInstalled, freePort, kill, waitForPing } from './redis-server.js';

/** A three-master Redis Cluster (no replicas) started for tests, on loopback ports of its own. */
export interface TestRedisCluster {
  /** `host:port` of every master, as `REDIS_CLUSTER_NODES` takes them. */
  nodes: Array<{ host: string; port: number }>;
  /** `REDIS_CLUSTER_NODES` for a BFF process. */
  nodeList: string;
  /** The port of the master that serves `key`'s slot. */
  masterOf(key: string): Promise<number>;
  /** Kills (SIGKILL) the master on `port`: its slots are down until `restart`. */
  kill(port: number): Promise<void>;
  /** Starts the master on `port` again, empty (no persistence) but with its slots (nodes.conf). */
  restart(port: number): Promise<void>;
  /** Kills every node and removes the temporary directory. */
  stop(): Promise<void>;
}

const SERVER = process.env.REDIS_SERVER_BIN ?? 'redis-server';
const CLI = process.env.REDIS_CLI_BIN ?? 'redis-cli';

/**
 * Starts three `redis-server --cluster-enabled yes` in a temporary directory and joins them with
 * `redis-cli --cluster create`. `cluster-require-full-coverage no`, as a deployment should set
 * it: a master that is down stops only its own slots, the others keep serving.
 */
export async function startRedisCluster(): Promise<TestRedisCluster> {
  assertRedisServerInstalled();
  const dir = mkdtempSync(join(tmpdir(), 'parley-cluster-'));
  const ports = [await freePort(), await freePort(), await freePort()];
  const processes = new Map<number, ChildProcess>();
  const start = async (port: number) => {
    const child = spawn(SERVER, clusterArgs(port, dir), { stdio: 'ignore' });
    processes.set(port, child);
    await waitForPing(port, child);
  };
  const stop = async () => {
    await Promise.all([...processes.values()].map((child) => kill(child)));
    processes.clear();
    rmSync(dir, { recursive: true, force: true });
  };
  const killOnExit = () => {
    for (const child of processes.values()) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  try {
    await Promise.all(ports.map(start));
    const create = spawnSync(CLI, ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes'], { encoding: 'utf8', timeout: 30_000 });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    await untilClusterOk(ports);
  } catch (err) {
    await stop();
    throw err;
  }
  const nodes = ports.map((port) => ({ host: '127.0.0.1', port }));
  return {
    nodes,
    nodeList: nodes.map((node) => `${node.host}:${node.port}`).join(','),
    async masterOf(key) {
      const cluster = new Cluster(nodes, { lazyConnect: true });
      try {
        await cluster.connect();
        const slot = (await cluster.call('CLUSTER', 'KEYSLOT', key)) as number;
        const owner = cluster.slots[slot]?.[0];
        if (!owner) throw new Error(`no master serves slot ${slot}`);
        return Number(owner.slice(owner.lastIndexOf(':') + 1));
      } finally {
        cluster.disconnect();
      }
    },
    async kill(port) {
      const child = processes.get(port);
      processes.delete(port);
      if (child) await kill(child);
    },
    async restart(port) {
      await start(port);
      await untilClusterOk(ports);
    },
    async stop() {
      process.removeListener('exit', killOnExit);
      await stop();
    },
  };
}

function clusterArgs(port: number, dir: string): string[] {
  return [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
    '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`,
    '--cluster-node-timeout', '1000', '--cluster-require-full-coverage', 'no',
    '--save', '', '--appendonly', 'no', '--loglevel', 'warning',
  ];
}

/** Waits until every node that runs reports `cluster_state:ok` (slots assigned and gossip settled). */
async function untilClusterOk(ports: number[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (const port of ports) {
    for (;;) {
      const info = spawnSync(CLI, ['-p', String(port), 'cluster', 'info'], { encoding: 'utf8' }).stdout ?? '';
      if (info.includes('cluster_state:ok')) break;
      if (Date.now() > deadline) throw new Error(`cluster node ${port} not ok: ${info}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
