import { expect } from 'chai';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '../support/client';
import { runGrid } from '../support/cli';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir, withServer } from '../support/server';

const TENANTS_YAML = 'server:\n  tenants:\n    - name: t1\n    - name: t2\n';

describe('grid start with tenants (bin/grid)', function () {
  this.timeout(60_000);
  let dataDir: string;

  beforeEach(() => { dataDir = tempDir('grid-tenants-cli-'); });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const config = (name: string, text: string) => {
    const path = join(dataDir, name);
    writeFileSync(path, text);
    return path;
  };

  describe('a configuration whose tenants clash exits 2 with the reason on stderr', () => {
    it('a reserved tenant name', () => {
      const r = runGrid(['start', '--data', dataDir, '--port', '0', '--config', config('c.yaml', 'server:\n  tenants:\n    - name: v2\n')]);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.contain("tenant name 'v2' is reserved");
    });

    it('a tenant declared twice', () => {
      const r = runGrid(['start', '--data', dataDir, '--port', '0', '--config', config('c.json', '{"tenants":[{"name":"a"},{"name":"A"}]}')]);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.contain("tenant 'A' is declared twice");
    });

    it('a tenant named like a cache, or an alias, of the default container', async () => {
      await withServer({ dataDir, keepData: true }, (server) => server.as('admin').createCache('orders', { 'local-cache': { aliases: ['sales'] } }));
      const byName = runGrid(['start', '--data', dataDir, '--port', '0', '--config', config('n.yaml', 'server:\n  tenants:\n    - name: orders\n')]);
      expect(byName.status).to.equal(2);
      expect(byName.stderr).to.contain("grid: tenant 'orders' clashes with a cache named 'orders' in the default container: /rest/orders/… would stop reaching it");
      const byAlias = runGrid(['start', '--data', dataDir, '--port', '0', '--config', config('a.xml', '<server><tenants><tenant name="sales"/></tenants></server>')]);
      expect(byAlias.status).to.equal(2);
      expect(byAlias.stderr).to.contain("tenant 'sales' clashes with a cache ('orders') with the alias 'sales'");
    });
  });

  it('announces a generated admin per tenant without users; `grid user --tenant` gives a tenant its own users', async () => {
    const created = runGrid(['user', 'create', 'alice', '-p', 'alice-pw', '-g', 'admin', '--data', dataDir, '--tenant', 't1', '--init']);
    expect(created.status, created.stderr).to.equal(0);
    expect(runGrid(['user', 'list', '--data', dataDir, '--tenant', 't1']).stdout).to.contain('alice');
    expect(runGrid(['user', 'list', '--data', dataDir]).stdout).to.not.contain('alice');
    expect(runGrid(['user', 'list', '--data', dataDir, '--tenant', '../x']).status).to.equal(2);

    const proc = await spawnServer(['--data', dataDir, '--config', config('t.yaml', TENANTS_YAML)], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
    try {
      expect(proc.output()).to.contain("No users existed in tenant 't2', so grid created one");
      expect(proc.output()).to.not.contain("tenant 't1'");
      const alice = new Client(proc.url, { user: 'alice', password: 'alice-pw' });
      expect((await alice.get('/rest/t1/v2/caches')).status).to.equal(200);
      expect((await alice.get('/rest/v2/caches')).status).to.equal(401);
      const ops = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      expect((await ops.get('/rest/v2/caches')).status).to.equal(200);
      expect((await ops.get('/rest/t1/v2/caches')).status).to.equal(401);
    } finally {
      proc.child.kill('SIGTERM');
      expect(await waitForExit(proc.child)).to.equal(0);
    }
  });

  it('`grid user --tenant` creates nothing on bad arguments, names a tenant it had to create, and lists no unknown tenant', () => {
    const bad = runGrid(['user', 'create', 'bob', '-p', 'pw', '--data', dataDir, '--tenant', 't1']);
    expect(bad.status).to.equal(2);
    expect(bad.stderr).to.contain('user create needs -g ROLE[,ROLE]');
    expect(existsSync(join(dataDir, 'tenants')), 'a refused command leaves no store behind').to.equal(false);

    const unknown = runGrid(['user', 'list', '--data', dataDir, '--tenant', 't9', '--init']);
    expect(unknown.status).to.equal(2);
    expect(unknown.stderr).to.contain("tenant 't9' has no store in");
    expect(existsSync(join(dataDir, 'tenants', 't9'))).to.equal(false);

    const first = runGrid(['user', 'create', 'bob', '-p', 'pw', '-g', 'admin', '--data', dataDir, '--tenant', 't1', '--init']);
    expect(first.status).to.equal(0);
    expect(first.stderr, 'provisioning before the first start works, and says what it made').to.contain("tenant 't1' had no store");
    const second = runGrid(['user', 'create', 'carol', '-p', 'pw', '-g', 'admin', '--data', dataDir, '--tenant', 't1']);
    expect([second.status, second.stderr]).to.deep.equal([0, '']);
  });

  it('keeps every acknowledged write of every tenant after kill -9', async () => {
    for (const tenant of ['t1', 't2']) {
      expect(runGrid(['user', 'create', 'ops', '-p', 'ops-pw', '-g', 'admin', '--data', dataDir, '--tenant', tenant, '--init']).status).to.equal(0);
    }
    const file = config('t.yaml', TENANTS_YAML);
    let proc = await spawnServer(['--data', dataDir, '--config', file, '--durability', 'process'], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
    let ops = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
    for (const prefix of ['/rest', '/rest/t1', '/rest/t2']) {
      const r = await ops.post(`${prefix}/v2/caches/durable`, '{"local-cache":{"persistence":{"file-store":{}}}}', { 'Content-Type': 'application/json' });
      expect(r.status, r.text).to.equal(200);
      for (let i = 0; i < 20; i++) expect((await ops.put(`${prefix}/v2/caches/durable/k${i}`, `${prefix}-${i}`)).status).to.equal(204);
    }
    proc.child.kill('SIGKILL');
    await waitForExit(proc.child);

    proc = await spawnServer(['--data', dataDir, '--config', file]);
    ops = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
    try {
      for (const prefix of ['/rest', '/rest/t1', '/rest/t2']) {
        expect((await ops.get(`${prefix}/v2/caches/durable?action=size`)).json(), prefix).to.equal(20);
        for (let i = 0; i < 20; i++) expect((await ops.get(`${prefix}/durable/k${i}`)).text).to.equal(`${prefix}-${i}`);
      }
    } finally {
      proc.child.kill('SIGTERM');
      expect(await waitForExit(proc.child)).to.equal(0);
    }
  });
});
