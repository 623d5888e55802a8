import { expect } from 'chai';
import { Client } from '../support/client';
import { grid } from '../support/cli';
import { type ServerProcess, waitForExit } from '../support/process';
import { gridProcesses, PROCESS_ADMIN, redisEngine, throwawayCluster } from '../support/redis-cluster';
import { startTestServer, type TestServer } from '../support/server';

// Membership of grid nodes on one real 3+3 Redis Cluster (docs/scale-out.md, "Membership"), black-box
// over HTTP: node-a and node-c are `bin/grid start` processes (so they can be killed with -9), node-b
// runs in this process with the test users of every role.

type Json = Record<string, unknown>;
/** The issue's bound for a node killed with -9 to leave every list (the deadline is 5 s: docs/scale-out.md, "Membership"). */
const LEAVE_BOUND_MS = 10_000;

/** What one node says of the cluster through each resource that lists its members. */
async function seenBy(client: Client): Promise<{ members: string[]; coordinator: boolean; coordinatorName: string; info: Json; health: Json; listed: Json[]; distribution: Json[]; overview: Json }> {
  const info = (await client.get('/rest/v2/container')).json<Json>();
  const health = (await client.get('/rest/v2/container/health')).json<{ cluster_health: Json }>().cluster_health;
  const listed = (await client.get('/rest/v2/cluster/members')).json<{ members: Json[] }>().members;
  const distribution = (await client.get('/rest/v2/cluster?action=distribution')).json<Json[]>();
  const overview = (await client.get('/rest/v2/server/overview-report')).json<Json>();
  return { members: info.cluster_members as string[], coordinator: info.coordinator as boolean, coordinatorName: info.coordinator_address as string, info, health, listed, distribution, overview };
}

/** Every resource of one node lists exactly `names`, in that order (the coordinator first), with `coordinator` leading. */
async function expectMembers(client: Client, names: string[]): Promise<void> {
  const seen = await seenBy(client);
  expect(seen.members, `${client.url} cluster_members`).to.deep.equal(names);
  expect(seen.info).to.include({ cluster_size: names.length, coordinator_address: names[0], cluster_name: 'cluster' });
  expect(seen.coordinator).to.equal(seen.info.node_address === names[0]);
  expect(seen.health).to.include({ cluster_name: 'cluster', number_of_nodes: names.length });
  expect(seen.health.node_names).to.deep.equal(names);
  expect(seen.listed.map((m) => m.node_address)).to.deep.equal(names);
  expect(seen.distribution.map((d) => d.node_name)).to.deep.equal(names);
  expect(seen.overview).to.include({ 'cluster-size': names.length, 'coordinator-id': names[0], 'node-id': seen.info.node_address });
}

/** Whether both clients list exactly `names` now. */
async function listing(clients: Client[], names: string[]): Promise<boolean> {
  for (const c of clients) {
    const info = (await c.get('/rest/v2/container')).json<Json>();
    if (JSON.stringify(info.cluster_members) !== JSON.stringify(names)) return false;
  }
  return true;
}

/** Polls until every client lists `names`; answers how long that took (ms), failing past `bound`. */
async function timeUntilListing(clients: Client[], names: string[], bound: number): Promise<number> {
  const start = Date.now();
  while (!(await listing(clients, names))) {
    if (Date.now() - start > bound) throw new Error(`still not listing ${names.join(', ')} after ${bound} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - start;
}

describe('membership of grid nodes on one Redis Cluster', function () {
  this.timeout(120_000);
  let b: TestServer;
  let nodeA: ServerProcess;
  let nodeC: ServerProcess;
  const nodes = gridProcesses(() => redis, async () => { await b?.close(); });
  const redis = throwawayCluster();
  const client = (p: ServerProcess) => new Client(p.url, PROCESS_ADMIN);
  const { engineArgs } = nodes;
  const env = { APP_USER: PROCESS_ADMIN.user, APP_PASS: PROCESS_ADMIN.password };
  const start = (name: string) => nodes.start(name);
  /** `grid start` that is to be refused: its exit code and what it said. */
  const refused = async (args: string[]) => {
    return grid(['start', '--port', '0', '--log-level', 'warn', '--data', nodes.dataDir(), ...engineArgs(), ...args], { env, timeoutMs: 30_000 });
  };

  before(async () => {
    nodeA = await start('node-a');
    b = await startTestServer({ engine: redisEngine(redis), nodeName: 'node-b' });
    nodeC = await start('node-c');
  });

  it('lists every live node on every node, the oldest the one coordinator, with each node\'s address, version and memory', async () => {
    const names = ['node-a', 'node-b', 'node-c'];
    for (const c of [client(nodeA), b.as('admin'), client(nodeC)]) await expectMembers(c, names);
    const seen = await seenBy(b.as('admin'));
    const urls = [nodeA.url, b.url, nodeC.url].map((u) => new URL(u).host);
    expect(seen.info.cluster_members_physical_addresses).to.deep.equal(urls);
    expect(seen.listed.map((m) => m.physical_addresses)).to.deep.equal(urls.map((u) => `[${u}]`));
    expect(new Set(seen.listed.map((m) => m.version)).size).to.equal(1);
    expect(seen.listed.every((m) => m.cache_manager_status === 'RUNNING')).to.equal(true);
    for (const d of seen.distribution) {
      expect(d.node_addresses).to.have.length(1);
      expect(d.memory_used as number).to.be.greaterThan(0);
      expect(d.memory_available as number).to.be.at.least(0);
    }
    // one coordinator among the three
    const flags = await Promise.all([client(nodeA), b.as('admin'), client(nodeC)].map(async (c) => (await seenBy(c)).coordinator));
    expect(flags).to.deep.equal([true, false, false]);
  });

  it('answers the members to ADMIN and the distribution to MONITOR, as on one node', async () => {
    expect((await b.as('monitor').get('/rest/v2/cluster/members')).status).to.equal(403);
    expect((await b.anonymous().get('/rest/v2/cluster/members')).status).to.equal(401);
    expect((await b.as('monitor').get('/rest/v2/cluster?action=distribution')).status).to.equal(200);
    expect((await b.anonymous().get('/rest/v2/cluster?action=distribution')).status).to.equal(401);
    expect((await b.as('observer').get('/rest/v2/container')).json<Json>().cluster_size).to.equal(3);
    // another live node's report is that node's to give: 307 there; a name no node has is not found
    const auth = { Authorization: 'Basic ' + Buffer.from('admin:admin-pw').toString('base64') };
    const other = await fetch(`${b.url}/rest/v2/server/report/node-a`, { headers: auth, redirect: 'manual' });
    expect(other.status).to.equal(307);
    expect(other.headers.get('location')).to.equal(`http://${new URL(nodeA.url).host}/rest/v2/server/report/node-a`);
    // the test client follows it with the credentials, as `curl --location-trusted` does
    const followed = await b.as('admin').get('/rest/v2/server/report/node-a');
    expect([followed.status, followed.headers.get('content-type')]).to.deep.equal([200, 'application/gzip']);
    expect((await b.as('monitor').get('/rest/v2/server/report/node-a')).status).to.equal(403);
    expect((await b.as('admin').get('/rest/v2/server/report/node-z')).status).to.equal(404);
  });

  it('drops a node killed with -9 from every list within the bound, and another node takes over as coordinator', async () => {
    nodeA.child.kill('SIGKILL');
    await waitForExit(nodeA.child);
    const took = await timeUntilListing([b.as('admin'), client(nodeC)], ['node-b', 'node-c'], LEAVE_BOUND_MS);
    console.log(`      [measured] the killed coordinator left both lists ${took} ms after its exit`);
    for (const c of [b.as('admin'), client(nodeC)]) await expectMembers(c, ['node-b', 'node-c']);
    expect((await b.as('admin').get('/rest/v2/container')).json<Json>().coordinator).to.equal(true);
    expect((await client(nodeC).get('/rest/v2/container')).json<Json>().coordinator).to.equal(false);
  });

  it('takes back the name of a node killed a moment ago once that node\'s deadline passes', async () => {
    nodeC.child.kill('SIGKILL');
    await waitForExit(nodeC.child);
    nodeC = await start('node-c');
    await expectMembers(client(nodeC), ['node-b', 'node-c']);
    await expectMembers(b.as('admin'), ['node-b', 'node-c']);
  });

  it('refuses to start a node under the name of a live node (exit 2, the fix named)', async () => {
    const r = await refused(['--node-name', 'node-b']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/^grid: the node name 'node-b' is taken by a live node of this cluster \(127\.0\.0\.1:\d+, started .+\): give this node a name of its own with --node-name \(or node-name in its configuration file\)\n$/);
    await expectMembers(b.as('admin'), ['node-b', 'node-c']);
  });

  it('refuses to start a node whose cluster-name differs from the live nodes\' (exit 2, the fix named)', async () => {
    const r = await refused(['--node-name', 'node-d', '--cluster-name', 'other']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/^grid: this node's cluster-name is 'other', but the live nodes of this grid on the Redis Cluster are named 'cluster' \(node-[bc] at 127\.0\.0\.1:\d+\): start it with --cluster-name cluster .*engine\.namespace of its own\n$/);
    await expectMembers(b.as('admin'), ['node-b', 'node-c']);
  });

  it('drops a node stopped cleanly at once', async () => {
    nodeC.child.kill('SIGTERM');
    expect(await waitForExit(nodeC.child)).to.equal(0);
    await expectMembers(b.as('admin'), ['node-b']);
    expect((await b.as('admin').get('/rest/v2/container')).json<Json>().coordinator).to.equal(true);
  });
});
