import { expect } from 'chai';
import type { Reply } from '../support/client';
import { multipart } from '../support/multipart';
import { useServer } from '../support/server';
import { longestLoopDelay, STALL_BOUND_MS, whileProbing } from '../support/stall-probe';

// The small JSON documents of the management API — a counter definition, a backup or restore
// request, an x-site take-offline configuration — are read as configurations are (docs/security.md,
// Limits): past config-bytes 413, past config-attributes values or config-depth levels 400, counted
// before anything parses them. So is the header of a task script, read in linear time.

const JSON_TYPE = { 'Content-Type': 'application/json' };
const WITH_BACKUPS = { 'distributed-cache': { backups: { NYC: { backup: { strategy: 'ASYNC' } } } } };

/** A JSON array of `count` empty objects: 3 bytes a value, the costliest for JSON.parse. */
const emptyObjects = (count: number) => `[${Array(count).fill('{}').join(',')}]`;
const TEN_MB = emptyObjects(3_300_000);
const WIDE = emptyObjects(300_000); // 900 KB: under config-bytes, 300,000 values
const DEEP = '['.repeat(100) + ']'.repeat(100);

describe('management documents never stall the server', function () {
  this.timeout(60_000);
  const server = useServer();
  const deployer = server.as('deployer');
  const admin = server.as('admin');

  before(async () => {
    await admin.createCache('sites', WITH_BACKUPS);
  });

  const probed = async (send: () => Promise<Reply>): Promise<Reply> => {
    const { result: { result, probe }, maxMs } = await longestLoopDelay(() => whileProbing(server.url, send));
    expect(probe.failures, 'health probes that failed').to.equal(0);
    expect(probe.worstMs, 'slowest health probe (ms)').to.be.lessThan(STALL_BOUND_MS);
    expect(maxMs, 'longest event-loop delay (ms)').to.be.lessThan(STALL_BOUND_MS);
    return result;
  };

  /** 413 past config-bytes, 400 naming the limit past config-attributes and config-depth. */
  async function expectRefused(send: (body: string) => Promise<Reply>): Promise<void> {
    const large = await probed(() => send(TEN_MB));
    expect(large.status).to.equal(413);
    expect(large.text).to.contain('1048576');
    const wide = await probed(() => send(WIDE));
    expect(wide.status).to.equal(400);
    expect(wide.text).to.contain('more than 5000 values (limit config-attributes)');
    const deep = await probed(() => send(DEEP));
    expect(deep.status).to.equal(400);
    expect(deep.text).to.contain('nested deeper than 32 levels (limit config-depth)');
  }

  describe('POST /rest/v2/counters/{name} (CREATE)', () => {
    it('refuses a large, wide or deep definition from a deployer, and defines a normal one', async () => {
      await expectRefused((body) => deployer.post('/rest/v2/counters/hostile', body, JSON_TYPE));
      expect((await deployer.get('/rest/v2/counters/hostile')).status).to.equal(404);
      const ok = await deployer.post('/rest/v2/counters/fine', JSON.stringify({ 'weak-counter': { 'initial-value': 5 } }), JSON_TYPE);
      expect(ok.status).to.equal(200);
      expect((await deployer.get('/rest/v2/counters/fine')).text).to.equal('5');
    });
  });

  describe('POST /rest/v2/container/backups/{name} and restores (ADMIN)', () => {
    it('refuses a large, wide or deep backup request', async () => {
      await expectRefused((body) => admin.post('/rest/v2/container/backups/hostile', body, JSON_TYPE));
      expect((await admin.head('/rest/v2/container/backups/hostile')).status).to.equal(404);
    });

    it('refuses a large, wide or deep restore request', async () => {
      await expectRefused((body) => admin.post('/rest/v2/container/restores/hostile', body, JSON_TYPE));
      expect((await admin.head('/rest/v2/container/restores/hostile')).status).to.equal(404);
    });

    it('refuses a wide `resources` part of an uploaded restore', async () => {
      const { body, contentType } = multipart([
        { name: 'backup', content: Buffer.from('not read: the resources are checked first'), filename: 'b.zip', contentType: 'application/zip' },
        { name: 'resources', content: WIDE },
      ]);
      const r = await probed(() => admin.post('/rest/v2/container/restores/upload', body, { 'Content-Type': contentType }));
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('limit config-attributes');
    });
  });

  describe('PUT /rest/v2/caches/{cache}/x-site/backups/{site}/take-offline-config (ADMIN)', () => {
    it('refuses a large, wide or deep configuration, and takes a normal one', async () => {
      const url = '/rest/v2/caches/sites/x-site/backups/NYC/take-offline-config';
      await expectRefused((body) => admin.put(url, body, JSON_TYPE));
      expect((await admin.put(url, JSON.stringify({ after_failures: 7, min_wait: 70 }), JSON_TYPE)).status).to.equal(204);
      expect((await admin.get(url)).json()).to.deep.equal({ after_failures: 7, min_wait: 70 });
    });
  });

  describe('POST /rest/v2/tasks/{name} (ADMIN)', () => {
    it('reads a 200 KB header line in linear time', async () => {
      const header = `// mode=local, ${'a'.repeat(200_000)}\n`;
      const r = await probed(() => admin.post('/rest/v2/tasks/long-header', `${header}"done"`, { 'Content-Type': 'text/plain' }));
      expect(r.status).to.equal(200);
      const tasks = (await admin.get('/rest/v2/tasks')).json<Array<{ name: string; execution_mode: string }>>();
      expect(tasks.find((t) => t.name === 'long-header')?.execution_mode).to.equal('ONE_NODE');
    });
  });
});
