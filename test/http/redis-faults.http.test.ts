import { expect } from 'chai';
import { rmSync } from 'node:fs';
import calculateSlot from 'cluster-key-slot';
import { eventually } from '../support/poll';
import { type ServerProcess, spawnServer, waitForExit } from '../support/process';
import { killNode, masterOfSlot, useClusterClients } from '../support/redis-client';
import { throwawayCluster } from '../support/redis-cluster';
import { tempDir } from '../support/server';
import { redisCli } from '../../src/cli/local-redis-node';

// Faults under load (docs/scale-out.md, "Durability"): two grid processes over one 3+3 cluster,
// eight writers spread over both; a Redis master killed with SIGKILL, then a grid node killed with
// SIGKILL. Every write a client saw acknowledged is read back, key by key.

interface Load {
  /** Acknowledged writes: key → the value last acknowledged. */
  acked: Map<string, string>;
  failures: number;
  /** When each writer last had a write acknowledged (ms). */
  lastSuccess: number[];
  stop(): Promise<void>;
}

/** Eight writers, each putting its own keys in turn through `urls` (writer i through urls[i % n]) until stopped. */
function writeLoad(urls: () => string[], cache: string): Load {
  const load: Load = { acked: new Map(), failures: 0, lastSuccess: Array(8).fill(0) as number[], stop: async () => undefined };
  let running = true;
  const writers = Array.from({ length: 8 }, async (_, w) => {
    for (let n = 0; running; n++) {
      const list = urls();
      const key = `w${w}-${n % 200}`;
      const value = `${w}:${n}`;
      try {
        const r = await fetch(`${list[w % list.length]}/rest/v2/caches/${cache}/${key}`, {
          method: 'PUT', body: value, headers: { 'Content-Type': 'text/plain' }, signal: AbortSignal.timeout(15_000),
        });
        await r.arrayBuffer();
        if (r.status === 204) {
          load.acked.set(key, value);
          load.lastSuccess[w] = Date.now();
        } else {
          load.failures++;
          expect(r.status, 'a failed write is a 503').to.equal(503);
        }
      } catch (err) {
        if ((err as Error).name === 'AssertionError') throw err;
        load.failures++; // a node killed under the request
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });
  load.stop = async () => {
    running = false;
    await Promise.all(writers);
  };
  return load;
}

/**
 * Every acknowledged key read back through `url`; what does not answer its acknowledged value. A 503
 * is asked again (the node's client may still be finding the new master: the write is not lost).
 */
async function readBack(url: string, cache: string, acked: Map<string, string>): Promise<string[]> {
  const wrong: string[] = [];
  const deadline = Date.now() + 30_000;
  for (const [key, value] of acked) {
    let r = await fetch(`${url}/rest/v2/caches/${cache}/${key}`);
    while (r.status === 503 && Date.now() < deadline) {
      await r.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 200));
      r = await fetch(`${url}/rest/v2/caches/${cache}/${key}`);
    }
    const text = await r.text();
    if (r.status !== 200 || text !== value) wrong.push(`${key}: ${r.status} ${text} (acknowledged ${value})`);
  }
  return wrong;
}

describe('grid nodes on a Redis Cluster under faults', function () {
  this.timeout(180_000);
  const redis = throwawayCluster({ own: true }); // it kills masters and moves slots;
  const clients = useClusterClients(redis);
  const servers: ServerProcess[] = [];
  const dirs: string[] = [];

  const start = async () => {
    const dir = tempDir('grid-redis-node-');
    dirs.push(dir);
    const server = await spawnServer(['--data', dir, '--engine', 'redis', '--redis', redis.seeds, '--redis-password-file', redis.cluster.passwordFile, '--no-auth']);
    servers.push(server);
    return server;
  };

  after(async () => {
    for (const s of servers) {
      s.child.kill('SIGKILL');
      await waitForExit(s.child);
    }
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('serves on through the other grid node when one is killed under load, losing no acknowledged write', async () => {
    const [a, b] = [await start(), await start()];
    await fetch(`${a.url}/rest/v2/caches/survive`, { method: 'POST', body: '{"local-cache":{}}', headers: { 'Content-Type': 'application/json' } });
    await eventually(async () => (await fetch(`${b.url}/rest/v2/caches/survive?action=size`)).status === 200, 10_000, 'node B to have the cache');
    let alive = [a.url, b.url];
    const load = writeLoad(() => alive, 'survive');
    await eventually(() => load.acked.size >= 400, 30_000, 'the load to get going');
    a.child.kill('SIGKILL');
    await waitForExit(a.child);
    const killedAt = Date.now();
    alive = [b.url];
    await eventually(() => load.lastSuccess.every((t) => t > killedAt), 30_000, 'every writer to write through node B');
    await load.stop();
    const wrong = await readBack(b.url, 'survive', load.acked);
    expect(wrong, `${wrong.length} of ${load.acked.size} acknowledged writes lost`).to.deep.equal([]);
  });

  it('moves slots between masters under load without losing an acknowledged write, and says HEALTHY_REBALANCING while a slot moves', async () => {
    const [a, b] = [await start(), await start()];
    const masters = await Promise.all(clients.client.nodes('master').map(async (n) => ({ node: n, address: `${n.options.host}:${n.options.port}`, id: await n.call('CLUSTER', 'MYID') as string })));
    const [from, to] = masters;
    // the segments' key sets on `from` (`k:{<cache id>:<segment>}`) before the cache exists: the ones after it are the cache's
    const keySets = async () => {
      const found: string[] = [];
      let cursor = '0';
      do {
        const [next, keys] = await from.node.call('SCAN', cursor, 'MATCH', 'k:{*', 'COUNT', '10000') as [string, string[]];
        found.push(...keys);
        cursor = next;
      } while (cursor !== '0');
      return found;
    };
    const before = new Set(await keySets());
    expect((await fetch(`${a.url}/rest/v2/caches/moving`, { method: 'POST', body: '{"local-cache":{}}', headers: { 'Content-Type': 'application/json' } })).status).to.equal(200);
    await eventually(async () => (await fetch(`${b.url}/rest/v2/caches/moving?action=size`)).status === 200, 5_000, 'node B to have the cache');
    const health = async () => [
      await (await fetch(`${b.url}/rest/v2/caches/moving?action=health`)).text(),
      ((await (await fetch(`${a.url}/rest/v2/container/health`)).json()) as { cluster_health: { health_status: string } }).cluster_health.health_status,
    ];
    expect(await health()).to.deep.equal(['HEALTHY', 'HEALTHY']);
    const load = writeLoad(() => [a.url, b.url], 'moving');
    let movedAt = 0;
    try {
      await eventually(() => load.acked.size >= 200, 30_000, 'the load to get going');

      // a slot of one of the cache's segments on `from`, marked as moving, as a reshard does before it moves the slot's keys
      const slot = calculateSlot((await keySets()).find((k) => !before.has(k))!);
      await to.node.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', from.id);
      await from.node.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', to.id);
      try {
        await eventually(async () => (await health()).every((h) => h === 'HEALTHY_REBALANCING'), 10_000, 'the health to tell the moving slot');
      } finally {
        await from.node.call('CLUSTER', 'SETSLOT', slot, 'STABLE');
        await to.node.call('CLUSTER', 'SETSLOT', slot, 'STABLE');
      }
      await eventually(async () => (await health()).every((h) => h === 'HEALTHY'), 10_000, 'the health to be HEALTHY again');

      // a real reshard of 150 slots, keys and all, while the writers go on
      movedAt = Date.now();
      await redisCli(Number(from.address.split(':')[1]), ['--cluster', 'reshard', from.address, '--cluster-from', from.id, '--cluster-to', to.id,
        '--cluster-slots', '150', '--cluster-yes'], redis.cluster.password, 120_000);
      await eventually(() => load.lastSuccess.every((t) => t > Date.now() - 1_000 && t > movedAt), 30_000, 'every writer to write after the reshard');
    } finally {
      await load.stop(); // a failed step leaves no writer running
    }
    const wrong = await readBack(b.url, 'moving', load.acked);
    expect(wrong, `${wrong.length} of ${load.acked.size} acknowledged writes lost (${load.failures} failed writes)`).to.deep.equal([]);
    await eventually(async () => (await health()).every((h) => h === 'HEALTHY'), 10_000, 'the health to be HEALTHY after the reshard');
    console.log(`      [measured] reshard of 150 slots under load: ${load.acked.size} keys acknowledged, ${load.failures} writes failed, ${Date.now() - movedAt} ms`);
  });

  // last: the promoted replica has no replica of its own, so --durability power refuses writes to its slots afterwards
  it('loses no acknowledged write when a master is killed under load (--durability power), and serves again by itself', async () => {
    const [a, b] = [await start(), await start()];
    expect((await fetch(`${a.url}/rest/v2/caches/load`, { method: 'POST', body: '{"local-cache":{}}', headers: { 'Content-Type': 'application/json' } })).status).to.equal(200);
    await eventually(async () => (await fetch(`${b.url}/rest/v2/caches/load?action=size`)).status === 200, 5_000, 'node B to have the cache');
    const load = writeLoad(() => [a.url, b.url], 'load');
    await eventually(() => load.acked.size >= 400, 30_000, 'the load to get going');

    // the master of the container's records: it serves a third of the cache's segments too
    const victim = masterOfSlot(clients.client, calculateSlot('{grid:default}'));
    const killedAt = Date.now();
    killNode(redis, victim);
    await eventually(() => load.lastSuccess.every((t) => t > killedAt + 1_000), 60_000, 'every writer to write again after the kill');
    const back = Math.max(...load.lastSuccess.map((t) => t - killedAt));
    await load.stop();
    const wrong = await readBack(b.url, 'load', load.acked);
    expect(wrong, `${wrong.length} of ${load.acked.size} acknowledged writes lost or changed (service back ${back} ms after the kill, ${load.failures} failed writes)`).to.deep.equal([]);
    console.log(`      [measured] ${load.acked.size} keys acknowledged, ${load.failures} writes failed (503) around the kill, every writer back within ${back} ms`);
  });
});
