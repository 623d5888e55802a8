import { expect } from 'chai';
import { DEFAULT_KEY_TYPE } from '../../src/model/media/key-codec';
import type { Reply } from '../support/client';
import { until } from '../support/poll';
import { useServer } from '../support/server';
import { SseReader } from '../support/sse';
import { longestLoopDelay, STALL_BOUND_MS, whileProbing, type ProbeReport } from '../support/stall-probe';
import { TWO_NODES } from '../support/two-node-engine';

// What a read-only user can make the server do grows with what the cache holds; each case sends
// it against a cache as large as a deployment may have — 40 values of 10 MB (max-content-length)
// in a persistent cache, 200,000 keys in memory, 100 MB to back up — while a health probe runs,
// and asserts the probe kept answering (docs/security.md, Limits). (100 values of 1 MB: before
// backups paged them, 300 held the loop 10 s, so 100 still would for seconds; 400 took 18 s to
// write alone.) The server runs in this process, so the longest event-loop delay is measured too:
// a probe sees a stall only when one of its requests is waiting as it begins, and its next
// request waits on the same loop.

const MB10 = 10 * 1000 * 1000 - 64;
const BIG_VALUES = 40;
// on two nodes over Redis a tenth: the same listings of a cache far larger than a page, filled with
// ten times fewer round trips (the fill alone took three minutes there)
const MANY_KEYS = TWO_NODES ? 20_000 : 200_000;
const WRITES_IN_FLIGHT = 2_000;
const PERSISTENT = { 'local-cache': { encoding: { 'media-type': 'text/plain' }, memory: { 'max-count': '1' }, persistence: { 'file-store': {} } } };
const PASSIVATING = { 'local-cache': { encoding: { 'media-type': 'text/plain' }, memory: { 'max-count': '1' }, persistence: { passivation: true, 'file-store': {} } } };

function expectResponsive(probe: ProbeReport): void {
  expect(probe.failures, 'health probes that failed').to.equal(0);
  expect(probe.probes, 'health probes answered').to.be.greaterThan(0);
  expect(probe.worstMs, 'slowest health probe (ms)').to.be.lessThan(STALL_BOUND_MS);
}

const basic = (role: string) => ({ Authorization: 'Basic ' + Buffer.from(`${role}:${role}-pw`).toString('base64') });

describe('stored state: a large cache never stalls the server', function () {
  this.timeout(180_000);
  const server = useServer();
  const observer = server.as('observer');
  const monitor = server.as('monitor');
  const admin = server.as('admin');

  const probed = async <T>(send: () => Promise<T>): Promise<T> => {
    const { result: { result, probe }, maxMs } = await longestLoopDelay(() => whileProbing(server.url, send));
    expectResponsive(probe);
    expect(maxMs, 'longest event-loop delay (ms)').to.be.lessThan(STALL_BOUND_MS);
    return result;
  };

  /** `count` values of 10 MB, each distinct (`v<i>` at its start), two writes at a time. */
  async function fillBig(cache: string, count: number): Promise<void> {
    const value = Buffer.alloc(MB10, 'x');
    for (let i = 0; i < count; i += 2) {
      await Promise.all([i, i + 1].filter((n) => n < count).map(async (n) => {
        const r = await admin.put(`/rest/v2/caches/${cache}/k${String(n).padStart(2, '0')}`, Buffer.concat([Buffer.from(`v${n}`), value]), { 'Content-Type': 'text/plain' });
        expect(r.status).to.equal(204);
      }));
    }
  }

  before(async () => {
    await admin.createCache('big', PERSISTENT);
    await fillBig('big', BIG_VALUES);
    // 200,000 keys are written through the service: over HTTP that alone takes minutes here
    await admin.createCache('many', { 'local-cache': { encoding: { 'media-type': 'text/plain' } } });
    const s = server.running.services;
    const h = s.caches.require('many');
    // a few thousand in flight at a time: on the redis engine each write is a command that fails
    // after 5 s in the client's queue (docs/scale-out.md, When Redis fails), and 200,000 at once wait longer
    for (let from = 0; from < MANY_KEYS; from += WRITES_IN_FLIGHT) {
      const writes: Array<Promise<unknown>> = [];
      for (let i = from; i < Math.min(from + WRITES_IN_FLIGHT, MANY_KEYS); i++) {
        writes.push(Promise.resolve(s.entries.put(h, { key: s.entries.storedKey(h, `key-${i}`, DEFAULT_KEY_TYPE), value: Buffer.from(`value-${i}`), contentType: undefined })));
      }
      await Promise.all(writes);
    }
  });

  describe('a persistent cache of 40 values of 10 MB', () => {
    it('lists its keys (v2 and v1) to an observer without reading the values', async () => {
      const keys = await probed(() => observer.get('/rest/v2/caches/big?action=keys'));
      expect(keys.status).to.equal(200);
      expect(keys.json<string[]>()).to.have.length(BIG_VALUES).and.include.members(['k00', 'k39']);
      // one key, whichever the engine lists first (the original's order is its segments', not the keys')
      const one = await probed(() => observer.get('/rest/v2/caches/big?action=keys&limit=1'));
      expect(one.json<string[]>()).to.have.length(1).and.satisfy(([k]: string[]) => /^k\d\d$/.test(k));
      const v1 = await probed(() => observer.get('/rest/big'));
      expect(v1.status).to.equal(200);
      expect(v1.text.split('\n')).to.have.length(BIG_VALUES);
    });

    it('lists its first entry to an observer, reading one value', async () => {
      const r = await probed(() => observer.get('/rest/v2/caches/big?action=entries&limit=1'));
      expect(r.status).to.equal(200);
      const [entry] = r.json<Array<{ key: string; value: string }>>();
      const n = /^k(\d\d)$/.exec(entry.key)?.[1];
      expect(n, 'a key of the cache').to.not.equal(undefined);
      expect(entry.value).to.have.length(MB10 + `v${Number(n)}`.length);
      expect(entry.value.startsWith(`v${Number(n)}xxx`)).to.equal(true);
    });

    it('counts it for a monitor: size, details, statistics, container statistics', async () => {
      expect((await probed(() => observer.get('/rest/v2/caches/big?action=size'))).text).to.equal(String(BIG_VALUES));
      const details = await probed(() => monitor.get('/rest/v2/caches/big'));
      expect(details.json<{ size: number }>().size).to.equal(BIG_VALUES);
      expect((await probed(() => monitor.get('/rest/v2/caches/big?action=stats'))).status).to.equal(200);
      const container = await probed(() => monitor.get('/rest/v2/container/stats'));
      expect(container.json<{ number_of_entries: number }>().number_of_entries).to.be.at.least(BIG_VALUES);
    });

    it('counts it for a monitor asking eight times at once', async () => {
      const details = await probed(() => Promise.all(Array.from({ length: 8 }, () => monitor.get('/rest/v2/caches/big'))));
      expect(details.map((r) => r.json<{ size: number }>().size)).to.deep.equal(Array(8).fill(BIG_VALUES));
    });

    it('sends its current state to a listener (LISTEN) without reading the values', async () => {
      const events = await probed(async () => {
        const sse = await SseReader.open(`${server.url}/rest/v2/caches/big?action=listen&includeCurrentState=true`, { ...basic('application'), Accept: 'text/plain' });
        try {
          return await sse.next(BIG_VALUES, 30_000);
        } finally {
          sse.close();
        }
      });
      expect(events.map((e) => e.data)).to.include.members(['k00', 'k39']);
      expect(events.every((e) => e.event === 'cache-entry-created')).to.equal(true);
    });
  });

  describe('200,000 keys in memory', () => {
    it('sends all of them as the current state to a listener (LISTEN), at the pace it reads', async () => {
      // written as fast as they were made, the first ~25,000 filled the stream's buffer and the stream was dropped
      const events = await probed(async () => {
        const sse = await SseReader.open(`${server.url}/rest/v2/caches/many?action=listen&includeCurrentState=true`, { ...basic('application'), Accept: 'text/plain' });
        try {
          return await sse.next(MANY_KEYS, 60_000);
        } finally {
          sse.close();
        }
      });
      expect(new Set(events.map((e) => e.data)).size).to.equal(MANY_KEYS);
      expect(events.every((e) => e.event === 'cache-entry-created')).to.equal(true);
    });

    it('lists them in v1 form to an observer, streamed: text, XML, JSON and hex', async () => {
      const text = await probed(() => observer.get('/rest/many'));
      expect(text.status).to.equal(200);
      expect(text.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
      const lines = text.text.split('\n');
      expect(lines).to.have.length(MANY_KEYS);
      expect(new Set(lines).size).to.equal(MANY_KEYS);
      const xml = await probed(() => observer.get('/rest/many', { Accept: 'application/xml' }));
      expect(xml.text.startsWith('<?xml version="1.0" encoding="UTF-8"?><keys><key>')).to.equal(true);
      expect(xml.text.endsWith('</key></keys>')).to.equal(true);
      expect(xml.text.split('<key>')).to.have.length(MANY_KEYS + 1);
      const json = await probed(() => observer.get('/rest/many', { Accept: 'application/json' }));
      expect(json.text.startsWith('keys=[key-')).to.equal(true);
      expect(json.text.split(',')).to.have.length(MANY_KEYS);
      const hex = await probed(() => observer.get('/rest/many', { Accept: 'application/octet-stream' }));
      expect(hex.text.split('\n').every((l) => /^0x[0-9a-f]+$/.test(l))).to.equal(true);
    });

    it('lists them in v1 form in a charset with a byte order mark once', async () => {
      const r = await probed(() => observer.get('/rest/many', { Accept: 'text/plain; charset=UTF-16' }));
      expect(r.headers.get('content-type')).to.equal('text/plain; charset=UTF-16');
      expect([...r.bytes.subarray(0, 2)]).to.deep.equal([0xfe, 0xff]);
      const text = Buffer.from(r.bytes.subarray(2)).swap16().toString('utf16le');
      expect(text.split('\n')).to.have.length(MANY_KEYS);
      expect(text.includes('\ufeff')).to.equal(false);
    });

    it('lists their keys and entries to an observer', async () => {
      const keys = await probed(() => observer.get('/rest/v2/caches/many?action=keys'));
      expect(keys.json<string[]>()).to.have.length(MANY_KEYS);
      const entries = await probed(() => observer.get('/rest/v2/caches/many?action=entries&metadata=true'));
      expect(entries.json<unknown[]>()).to.have.length(MANY_KEYS);
    });
  });

  describe('80 caches of 1 MiB configurations (a deployer made them)', () => {
    const CACHES = 80;

    /** Reads an answer to its end without keeping it (the client's own work stays small): status, bytes and its start. */
    async function drain(path: string, role: string): Promise<{ status: number; bytes: number; head: string }> {
      const res = await fetch(server.url + path, { headers: basic(role) });
      let bytes = 0;
      let head = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (head.length < 64) head += Buffer.from(chunk).toString('utf8', 0, 64);
        bytes += chunk.length;
      }
      return { status: res.status, bytes, head };
    }

    before(async () => {
      const deployer = server.as('deployer');
      for (let i = 0; i < CACHES; i++) {
        const aliases = Array.from({ length: 3900 }, (_, j) => `c${i}-alias-${j}-${'x'.repeat(230)}`);
        await deployer.createCache(`configured-${i}`, { 'local-cache': { aliases } });
      }
    });

    it('lists their configurations and details to a monitor, streamed', async () => {
      const configs = await probed(() => drain('/rest/v2/container/cache-configs', 'monitor'));
      expect(configs.status).to.equal(200);
      expect(configs.bytes).to.be.greaterThan(CACHES * 900_000);
      expect(configs.head.startsWith('[{"name":"big","configuration":{"big":{"local-cache":')).to.equal(true);
      const detailed = await probed(() => drain('/rest/v2/caches?action=detailed', 'monitor'));
      expect(detailed.status).to.equal(200);
      expect(detailed.bytes).to.be.greaterThan(CACHES * 900_000);
    });

    it('writes the JSON it always wrote, pretty or not, empty or not', async () => {
      const empty = await monitor.get('/rest/v2/cache-configs/templates?pretty=true');
      expect(empty.text).to.equal('[]');
      for (const name of ['tmpl-a', 'tmpl-b']) {
        const r = await admin.post(`/rest/v2/caches/${name}`, '{"distributed-cache-configuration":{"mode":"ASYNC","statistics":true}}', { 'Content-Type': 'application/json' });
        expect(r.status).to.equal(200);
      }
      for (const pretty of [true, false]) {
        const r = await monitor.get(`/rest/v2/cache-configs/templates${pretty ? '?pretty=true' : ''}`);
        const parsed = r.json<Array<{ name: string }>>();
        expect(parsed.map((t) => t.name)).to.deep.equal(['tmpl-a', 'tmpl-b']);
        expect(r.text).to.equal(JSON.stringify(parsed, null, pretty ? 2 : undefined));
      }
    });
  });

  describe('a value of 64 MB (max-content-length raised)', () => {
    const large = useServer({ maxContentLength: 64 * 1024 * 1024 });

    before(async () => {
      await large.as('admin').createCache('octets', { 'local-cache': {} });
      const s = large.running.services;
      const h = s.caches.require('octets');
      await s.entries.put(h, { key: s.entries.storedKey(h, 'huge', DEFAULT_KEY_TYPE), value: Buffer.alloc(64 * 1000 * 1000, 0xab), contentType: undefined });
    });

    it('lists it to an observer in hex, a piece at a time', async () => {
      const { result: { result, probe }, maxMs } = await longestLoopDelay(() => whileProbing(large.url, async () => {
        const res = await fetch(`${large.url}/rest/v2/caches/octets?action=entries&content-negotiation=true`, { headers: basic('observer') });
        let bytes = 0;
        let tail = '';
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += chunk.length;
          tail = (tail + Buffer.from(chunk).toString('latin1')).slice(-16);
        }
        return { status: res.status, bytes, tail };
      }));
      expectResponsive(probe);
      expect(maxMs, 'longest event-loop delay (ms)').to.be.lessThan(STALL_BOUND_MS);
      expect(result.status).to.equal(200);
      expect(result.bytes).to.equal('[{"key":"0x68756765","value":"0x"}]'.length + 128 * 1000 * 1000);
      expect(result.tail).to.equal(`${'ab'.repeat(8)}"}]`.slice(-16));
    });
  });

  describe('backups (ADMIN)', () => {
    it('back up a passivating cache of 100 values of 1 MB', async () => {
      await admin.createCache('passivated', PASSIVATING);
      const s = server.running.services;
      const h = s.caches.require('passivated');
      const value = Buffer.alloc(1_000_000, 'x');
      for (let i = 0; i < 100; i++) {
        await s.entries.put(h, { key: s.entries.storedKey(h, `k${i}`, DEFAULT_KEY_TYPE), value: Buffer.concat([Buffer.from(`v${i}`), value]), contentType: undefined });
      }
      const r = await probed(async () => {
        expect((await admin.post('/rest/v2/container/backups/all', JSON.stringify({ resources: { caches: ['passivated'] } }), { 'Content-Type': 'application/json' })).status).to.equal(202);
        return until(() => admin.head('/rest/v2/container/backups/all'));
      });
      expect(r.status).to.equal(200);
      const zip: Reply = await admin.get('/rest/v2/container/backups/all');
      expect(zip.status).to.equal(200);
      expect(zip.bytes.length).to.be.greaterThan(0);
    });
  });
});
