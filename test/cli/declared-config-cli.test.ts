import { expect } from 'chai';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '../support/client';
import { runGrid } from '../support/cli';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir } from '../support/server';
import { packageRoot } from '../../src/util/package-info';

const OPS = { APP_USER: 'ops', APP_PASS: 'ops-pw' };

/** The `infinispan.xml` docs/configuration.md shows as one that "runs as written". */
function documentedInfinispanXml(): string {
  const doc = readFileSync(join(packageRoot(), 'docs', 'configuration.md'), 'utf8');
  const m = /This `infinispan\.xml` runs as written[^\n]*\n\n```xml\n([\s\S]*?)\n```/.exec(doc);
  if (!m) throw new Error('docs/configuration.md no longer shows the infinispan.xml that runs as written');
  return m[1];
}

/** Warning lines of the start (the JSON log), by the element they name. */
function ignoredElements(output: string): string[] {
  return output.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: number; element?: string })
    .filter((l) => l.level === 40 && l.element !== undefined).map((l) => l.element!);
}

describe('grid start --config with declared resources', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => { dir = tempDir(); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts with the infinispan.xml of docs/configuration.md as written, creating what it declares and naming each part it ignores', async () => {
    const file = join(dir, 'infinispan.xml');
    writeFileSync(file, documentedInfinispanXml());
    const proc = await spawnServer(['--data', join(dir, 'data'), '--config', file], OPS);
    try {
      const ops = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      expect((await ops.get('/rest/v2/caches')).json()).to.include.members(['orders', 'settings', 'sessions', 'lookups']);
      expect((await ops.get('/rest/v2/caches/orders?action=config')).json()).to.deep.equal({
        orders: {
          'distributed-cache': {
            configuration: 'base-template', statistics: true, encoding: { 'media-type': 'application/x-protostream' },
            expiration: { lifespan: '3600000' }, memory: { 'max-count': '500000', 'when-full': 'REMOVE' },
            persistence: { passivation: false, 'file-store': {} },
          },
        },
      });
      expect((await ops.get('/rest/v2/counters/order-ids')).text).to.equal('1000');
      expect((await ops.get('/rest/v2/security/permissions/reader')).status).to.equal(200);
    } finally {
      proc.child.kill('SIGTERM');
      await waitForExit(proc.child);
    }
    // the log is buffered: read once the process has stopped
    expect(ignoredElements(proc.output())).to.have.members([
      'cache-container.transport', 'cache-container.counters.num-owners', 'cache-container.counters.reliability',
      'infinispan.server.interfaces', 'infinispan.server.socket-bindings', 'infinispan.server.security.security-realms', 'infinispan.server.endpoints',
    ]);
  });

  it('warns once about each top-level element grid does not implement, and starts', async () => {
    const file = join(dir, 'infinispan.xml');
    writeFileSync(file, '<infinispan><jgroups><stack name="x"/></jgroups><threads/><cache-container><local-cache name="c"/></cache-container></infinispan>');
    const proc = await spawnServer(['--data', join(dir, 'data'), '--config', file], OPS);
    proc.child.kill('SIGTERM');
    expect(await waitForExit(proc.child)).to.equal(0);
    expect(ignoredElements(proc.output())).to.deep.equal(['infinispan.jgroups', 'infinispan.threads']);
    expect(proc.output()).to.include('"reason":"grid runs as one node: there is no cluster transport"');
  });

  it('exits 2 with one line naming the file, the cache and the attribute when the data dir differs', async () => {
    const file = join(dir, 'infinispan.xml');
    const data = join(dir, 'data');
    writeFileSync(file, '<infinispan><cache-container><local-cache name="c"><memory max-count="10"/></local-cache></cache-container></infinispan>');
    const proc = await spawnServer(['--data', data, '--config', file], OPS);
    proc.child.kill('SIGTERM');
    await waitForExit(proc.child);
    writeFileSync(file, '<infinispan><cache-container><local-cache name="c"><memory max-count="20"/></local-cache></cache-container></infinispan>');
    const r = runGrid(['start', '--data', data, '--port', '0', '--config', file]);
    expect(r.status).to.equal(2);
    expect(r.stderr).to.equal(`grid: ${file}: cache 'c' differs from the data dir: 'local-cache.memory.max-count' is '10' there, '20' in the file; `
      + 'change the file, remove it from the data dir, or allow updates with update-declared: mutable\n');
  });

  it('exits 2 with the POST /caches text for an unknown element inside a cache', () => {
    const file = join(dir, 'infinispan.yaml');
    writeFileSync(file, 'infinispan:\n  cacheContainer:\n    caches:\n      c:\n        localCache:\n          bogus: {}\n');
    const r = runGrid(['start', '--data', join(dir, 'data'), '--port', '0', '--config', file]);
    expect(r.status).to.equal(2);
    expect(r.stderr).to.equal(`grid: ${file}: cache 'c': ISPN000327: Cannot find a parser for element 'bogus' in namespace '' at [6,11]. `
      + 'Check that your configuration is up-to-date for this server and you have the proper dependency in the classpath\n');
  });
});
