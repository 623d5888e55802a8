import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { DEFAULT_LIMITS } from '../../src/config/limits';
import { parseCacheConfig } from '../../src/model/cache-config';
import { Client } from '../support/client';
import { eventually } from '../support/poll';
import { spawnServer, waitForExit } from '../support/process';
import { rawStream } from '../support/raw-http';
import { tempDir, useServer, withServer } from '../support/server';
import { SseReader, type SseEventWithId } from '../support/sse';
import { longestLoopDelay, STALL_BOUND_MS } from '../support/stall-probe';
import { TWO_NODES } from '../support/two-node-engine';

const basic = (user: string, password = `${user}-pw`) => ({ Authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });
const JSON_TYPE = { 'Content-Type': 'application/json' };
const LISTEN = '/rest/v2/container/config?action=listen';

/** The names of the caches a `create-cache` event's JSON document defines. */
const cachesOf = (e: SseEventWithId) => Object.keys((JSON.parse(e.data) as { infinispan: { 'cache-container': { caches: object } } }).infinispan['cache-container'].caches);
const summary = (events: SseEventWithId[]) => events.map((e) => `${e.event} ${e.event.startsWith('remove-') || e.event === 'reset' ? e.data : cachesOf(e).join()}`);
const ids = (events: SseEventWithId[]) => events.map((e) => BigInt(e.id));
const increasing = (list: bigint[]) => list.every((id, i) => i === 0 || id > list[i - 1]);

describe('configuration events: ids and resuming (Last-Event-ID)', () => {
  const server = useServer({ users: { ops: ['monitor'] } });
  const admin = server.as('admin');
  const listen = (user: string, headers: Record<string, string> = {}, query = '') =>
    SseReader.open(`${server.url}${LISTEN}${query}`, { ...basic(user), Accept: 'application/json', ...headers });
  /** The id of the newest event: a cache created and heard. */
  const mark = async (name: string): Promise<string> => {
    const sse = await listen('admin');
    try {
      await admin.createCache(name);
      const [created] = await sse.nextWithIds(1);
      return created.id;
    } finally {
      sse.close();
    }
  };

  before(async () => {
    const s = server.running.services;
    await s.roles.createRole('operator', ['ALL'], 'global admin without a role on the secured caches');
    await s.roles.grant('ops', ['operator']);
  });

  it('gives every event an id: line, the ids increasing', async () => {
    const sse = await listen('admin');
    try {
      await admin.createCache('ids-a');
      await admin.post('/rest/v2/caches/ids-t', '{"local-cache-configuration":{}}', JSON_TYPE);
      await admin.delete('/rest/v2/caches/ids-a');
      const events = await sse.nextWithIds(3);
      expect(summary(events)).to.deep.equal(['create-cache ids-a', 'create-template ids-t', 'remove-cache ids-a']);
      expect(sse.blocks.slice(-3).map((b) => b[1])).to.deep.equal(events.map((e) => `id: ${e.id}`));
      expect(increasing(ids(events))).to.equal(true);
    } finally {
      sse.close();
    }
  });

  it('replays what a client missed — creates, updates, removals, templates — in order, then the live events', async () => {
    const seen = await mark('missed-0');
    await admin.createCache('missed-b');
    await admin.put('/rest/v2/caches/missed-b', '{"local-cache":{"expiration":{"lifespan":"5000"}}}', JSON_TYPE);
    await admin.delete('/rest/v2/caches/missed-0');
    expect((await admin.post('/rest/v2/caches/missed-v', '{"local-cache":{}}', { ...JSON_TYPE, flags: 'VOLATILE' })).status).to.equal(200);
    await admin.post('/rest/v2/caches/missed-t', '{"local-cache-configuration":{}}', JSON_TYPE);
    await admin.put('/rest/v2/caches/missed-t', '{"local-cache-configuration":{"statistics":true}}', JSON_TYPE);
    await admin.delete('/rest/v2/caches/missed-t');
    const expected = ['create-cache missed-b', 'update-cache missed-b', 'remove-cache missed-0', 'create-cache missed-v',
      'create-template missed-t', 'update-template missed-t', 'remove-template missed-t'];
    // the header, then the parameter of the EventSource polyfill (which hears the first stream's live event too)
    const resumes: Array<{ headers: Record<string, string>; query: string; live: string }> = [
      { headers: { 'Last-Event-ID': seen }, query: '', live: 'missed-live-h' },
      { headers: {}, query: `&lastEventId=${seen}`, live: 'missed-live-q' },
    ];
    for (const resume of resumes) {
      const sse = await listen('admin', resume.headers, resume.query);
      try {
        const missed = await sse.nextWithIds(expected.length);
        expect(summary(missed)).to.deep.equal(expected);
        expect(JSON.parse(missed[1].data)).to.deep.equal({ infinispan: { 'cache-container': { caches: { 'missed-b': { 'local-cache': { expiration: { lifespan: '5000' } } } } } } });
        expect(increasing([BigInt(seen), ...ids(missed)])).to.equal(true);
        expected.push(`create-cache ${resume.live}`);
        await admin.createCache(resume.live);
        const [live] = await sse.nextWithIds(1);
        expect(summary([live])).to.deep.equal([`create-cache ${resume.live}`]);
        expect(BigInt(live.id) > BigInt(missed[missed.length - 1].id)).to.equal(true);
      } finally {
        sse.close();
      }
    }
  });

  it('replays nothing of a secured cache to a listener without ADMIN on it, and moves its last id past it', async () => {
    const seen = await mark('secured-0');
    const vault = { 'local-cache': { security: { authorization: { enabled: true, roles: ['admin'] } } } };
    await admin.createCache('secured-vault', vault);
    await admin.put('/rest/v2/caches/secured-vault', JSON.stringify({ 'local-cache': { ...vault['local-cache'], expiration: { lifespan: '1000' } } }), JSON_TYPE);
    await admin.createCache('secured-open');
    expect((await admin.delete('/rest/v2/caches/secured-vault')).status).to.equal(200);
    const adminStream = await listen('admin', { 'Last-Event-ID': seen });
    const opsStream = await listen('ops', { 'Last-Event-ID': seen });
    try {
      const all = await adminStream.nextWithIds(4);
      expect(summary(all)).to.deep.equal(['create-cache secured-vault', 'update-cache secured-vault', 'create-cache secured-open', 'remove-cache secured-vault']);
      const [open] = await opsStream.nextWithIds(1);
      expect(summary([open])).to.deep.equal(['create-cache secured-open']);
      // the removal it may not see still moves the id it would resume after
      await opsStream.waitFor(() => opsStream.lastEventId === all[3].id);
      await admin.createCache('secured-live');
      expect(summary(await opsStream.nextWithIds(1))).to.deep.equal(['create-cache secured-live']);
    } finally {
      adminStream.close();
      opsStream.close();
    }
  });

  it('answers 400 for a Last-Event-ID that is no event id, and takes an empty one as none', async () => {
    for (const [headers, query, name] of [[{ 'Last-Event-ID': 'abc' }, '', 'Last-Event-ID'], [{}, '&lastEventId=1-2-3', 'lastEventId'],
      [{ 'Last-Event-ID': '123456789012345678901' }, '', 'Last-Event-ID']] as const) {
      const r = await admin.get(`${LISTEN}${query}`, headers);
      expect(r.status).to.equal(400);
      expect(r.text).to.match(new RegExp(`^${name} '.+' is not an event id \\(such as '42'\\): send the id of the last event received, or none to start afresh$`));
    }
    const sse = await listen('admin', { 'Last-Event-ID': '' });
    try {
      expect(sse.response.status).to.equal(200);
      await admin.createCache('empty-id');
      expect(summary(await sse.nextWithIds(1))).to.deep.equal(['create-cache empty-id']);
    } finally {
      sse.close();
    }
  });

  it('answers an id this container never gave with a reset event and the current state, then the live events', async () => {
    const sse = await listen('admin', { 'Last-Event-ID': '1712345678901-0' });
    try {
      const [reset] = await sse.nextWithIds(1);
      expect(reset.event).to.equal('reset');
      expect(reset.data).to.equal('Events after 1712345678901-0 are no longer all kept: the current configuration follows');
      const { manager } = server.running.services;
      const state = await sse.nextWithIds(manager.handles().length + manager.templateDefinitions().length);
      expect(state.every((e) => e.event === 'create-cache' || e.event === 'create-template')).to.equal(true);
      expect(state.flatMap((e) => e.event === 'create-cache' ? cachesOf(e) : [])).to.include.members(['___protobuf_metadata', 'missed-b', 'secured-open']);
      await sse.waitFor(() => sse.lastEventId === manager.events.newest);
      await admin.createCache('after-reset');
      expect(summary(await sse.nextWithIds(1))).to.deep.equal(['create-cache after-reset']);
    } finally {
      sse.close();
    }
  });
});

describe('configuration events: a log of config-event-log events', () => {
  it('answers an id older than the log with a reset event and the current state, without the caches removed meanwhile', async () => {
    await withServer({ limits: { configEventLog: 3 } }, async (server) => {
      const admin = server.as('admin');
      const sse = await SseReader.open(`${server.url}${LISTEN}`, { ...basic('admin'), Accept: 'application/json' });
      await admin.createCache('old-1');
      const [seen] = await sse.nextWithIds(1);
      sse.close();
      await admin.delete('/rest/v2/caches/old-1');
      for (const name of ['old-2', 'old-3', 'old-4']) await admin.createCache(name);
      const resumed = await SseReader.open(`${server.url}${LISTEN}`, { ...basic('admin'), Accept: 'application/json', 'Last-Event-ID': seen.id });
      try {
        const [reset, ...state] = await resumed.nextWithIds(6);
        expect(reset.event).to.equal('reset');
        expect(summary(state).sort()).to.deep.equal(['create-cache ___protobuf_metadata', 'create-cache ___script_cache', 'create-cache old-2', 'create-cache old-3', 'create-cache old-4']);
        await admin.createCache('old-5');
        const [live] = await resumed.nextWithIds(1);
        expect(summary([live])).to.deep.equal(['create-cache old-5']);
        expect(BigInt(live.id) - BigInt(seen.id)).to.equal(5n);
      } finally {
        resumed.close();
      }
      // an id the log still covers resumes exactly
      const exact = await SseReader.open(`${server.url}${LISTEN}`, { ...basic('admin'), Accept: 'application/json', 'Last-Event-ID': String(BigInt(seen.id) + 2n) });
      try {
        expect(summary(await exact.nextWithIds(3))).to.deep.equal(['create-cache old-3', 'create-cache old-4', 'create-cache old-5']);
      } finally {
        exact.close();
      }
    });
  });
});

describe('configuration events: a client reading slower than the log moves', () => {
  it('gets a reset event and the state the stream began at once the events it has not read yet leave the log, then every change', async function () {
    this.timeout(60_000);
    const N = 24;
    await withServer({ limits: { configEventLog: N } }, async (server) => {
      const admin = server.as('admin');
      // about 800 KB each: a few of them fill every buffer between the server and a client that does not read
      const roles = Array.from({ length: 3000 }, (_, i) => `role-${i}-${'x'.repeat(250)}`);
      const big = (lifespan: number) => JSON.stringify({ 'local-cache': { expiration: { lifespan: String(lifespan) }, security: { authorization: { enabled: true, roles: ['admin', ...roles] } } } });
      const seen = BigInt(await (async () => {
        const sse = await SseReader.open(`${server.url}${LISTEN}`, { ...basic('admin'), Accept: 'application/json' });
        try {
          await admin.createCache('slow-big', JSON.parse(big(0)));
          return (await sse.nextWithIds(1))[0].id;
        } finally {
          sse.close();
        }
      })());
      for (let i = 1; i <= N; i++) expect((await admin.put('/rest/v2/caches/slow-big', big(i), JSON_TYPE)).status).to.equal(200);
      // node:http, not fetch: fetch reads on into memory while its reader waits
      const slow = await rawStream(server.url, LISTEN, { headers: { ...basic('admin'), Accept: 'application/json', 'Last-Event-ID': String(seen) } });
      try {
        // it does not read: these push every update it has not read yet out of the log
        for (let i = 1; i <= N; i++) await admin.createCache(`slow-${i}`);
        let text = '';
        slow.setEncoding('utf8');
        slow.on('data', (chunk: string) => { text += chunk; });
        await eventually(() => text.includes(`"slow-${N}"`), 30_000, 'the last live event');
        const frames = text.split('\n\n').map((block) => block.split('\n').filter((l) => !l.startsWith(':'))).filter((lines) => lines.join('') !== '')
          .map((lines) => {
            const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
            const data = field('data');
            const caches = data?.startsWith('{') ? Object.keys((JSON.parse(data) as { infinispan: { 'cache-container': { caches: object } } }).infinispan['cache-container'].caches) : [];
            return [field('event'), field('id'), ...caches].filter((x) => x !== undefined).join(' ');
          });
        const reset = frames.findIndex((f) => f === 'reset');
        expect(reset, frames.join(' | ')).to.be.within(1, N - 1);
        expect(frames.slice(0, reset)).to.deep.equal(Array.from({ length: reset }, (_, i) => `update-cache ${seen + 1n + BigInt(i)} slow-big`));
        expect(frames.slice(reset + 1)).to.deep.equal([
          'create-cache ___protobuf_metadata', 'create-cache ___script_cache', 'create-cache slow-big', String(seen + BigInt(N)),
          ...Array.from({ length: N }, (_, i) => `create-cache ${seen + BigInt(N + 1 + i)} slow-${i + 1}`),
        ]);
      } finally {
        slow.destroy();
      }
    });
  });
});

describe('configuration events across kill -9', () => {
  it('replays, from the reopened SQLite file, exactly the events a client missed, the end of volatile caches included', async function () {
    this.timeout(60_000);
    const dataDir = tempDir();
    const auth = { ...basic('ops', 'ops-pw'), Accept: 'application/json' };
    try {
      let proc = await spawnServer(['--data', dataDir], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
      let client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      const sse = await SseReader.open(`${proc.url}${LISTEN}`, auth);
      await client.createCache('crash-a');
      await sse.nextWithIds(1);
      const seen = sse.lastEventId;
      sse.close();
      await client.createCache('crash-b');
      await client.put('/rest/v2/caches/crash-b', '{"local-cache":{"expiration":{"lifespan":"5000"}}}', JSON_TYPE);
      await client.delete('/rest/v2/caches/crash-a');
      expect((await client.post('/rest/v2/caches/crash-v', '{"local-cache":{}}', { ...JSON_TYPE, flags: 'VOLATILE' })).status).to.equal(200);
      await client.post('/rest/v2/caches/crash-t', '{"local-cache-configuration":{}}', JSON_TYPE);
      proc.child.kill('SIGKILL');
      await waitForExit(proc.child);

      proc = await spawnServer(['--data', dataDir]);
      client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      const resumed = await SseReader.open(`${proc.url}${LISTEN}`, { ...auth, 'Last-Event-ID': seen });
      try {
        const missed = await resumed.nextWithIds(6);
        expect(summary(missed)).to.deep.equal(['create-cache crash-b', 'update-cache crash-b', 'remove-cache crash-a', 'create-cache crash-v',
          'create-template crash-t', 'remove-cache crash-v']);
        expect(increasing([BigInt(seen), ...ids(missed)])).to.equal(true);
        await client.createCache('crash-c');
        const [live] = await resumed.nextWithIds(1);
        expect(summary([live])).to.deep.equal(['create-cache crash-c']);
        expect(BigInt(live.id) > BigInt(missed[5].id)).to.equal(true);
      } finally {
        resumed.close();
        proc.child.kill('SIGTERM');
        expect(await waitForExit(proc.child)).to.equal(0);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('configuration events: replaying a full log', () => {
  // on two nodes over Redis a tenth (each update is a script, a follower step and a replica wait):
  // still a full log, replayed over many pages
  const LOG = TWO_NODES ? DEFAULT_LIMITS.configEventLog / 10 : DEFAULT_LIMITS.configEventLog;
  /** A secured cache with a long list of roles (16 KB of definition): each of its events costs some work to replay. */
  const roles = ['admin', ...Array.from({ length: 500 }, (_, i) => `a-role-that-no-user-holds-${i}`)];
  const vault = (lifespan: number) => ({ 'local-cache': { expiration: { lifespan: String(lifespan) }, security: { authorization: { enabled: true, roles } } } });

  it('never holds the event loop, to a listener who sees every event or none, and the live changes follow with no gap and no duplicate', async function () {
    this.timeout(180_000);
    await withServer({ durability: 'process', users: { ops: ['monitor'] }, limits: { configEventLog: LOG } }, async (server) => {
      const admin = server.as('admin');
      const { manager, roles: registry } = server.running.services;
      await registry.createRole('operator', ['ALL'], 'global admin without a role on the vault');
      await registry.grant('ops', ['operator']);
      await admin.createCache('full-vault', vault(0));
      // more updates than the log keeps, made in this process (10,000 requests would take long): the log is full, its oldest events gone
      await Promise.all(Array.from({ length: LOG + 10 }, (_, i) => manager.update('full-vault', parseCacheConfig(JSON.stringify(vault(i + 1)), 'json'))));
      const newest = BigInt(manager.events.newest);
      const open = (user: string, after: bigint) => SseReader.open(`${server.url}${LISTEN}`, { ...basic(user), Accept: 'application/yaml', 'Last-Event-ID': String(after) });
      const recent = 300n;
      // the server runs in this process: Node's own measure of the loop sees every stall
      const { result, maxMs } = await longestLoopDelay(async () => {
        // ops may see none of the vault's events: the whole log is read for it, and nothing sent
        const [none, some] = [await open('ops', newest - BigInt(LOG)), await open('admin', newest - recent)];
        try {
          // changes made while the log is replayed: held, then sent after it
          const live = Array.from({ length: 10 }, (_, i) => `full-live-${i}`);
          for (const name of live) await admin.createCache(name);
          const seenBySome = await some.nextWithIds(Number(recent) + live.length, 60_000);
          const seenByNone = await none.nextWithIds(live.length, 60_000);
          return { seenBySome, seenByNone, live };
        } finally {
          none.close();
          some.close();
        }
      });
      if (process.env.GRID_REPLAY_REPORT) console.log(`longest event-loop delay while replaying: ${maxMs.toFixed(1)} ms`);
      expect(maxMs, 'the longest event-loop delay while replaying (ms)').to.be.below(STALL_BOUND_MS);
      const { seenBySome, seenByNone, live } = result;
      expect(ids(seenBySome)).to.deep.equal(Array.from({ length: seenBySome.length }, (_, i) => newest - recent + 1n + BigInt(i)));
      // YAML: the document names the cache as `<name>:`
      const created = (events: SseEventWithId[]) => events.map((e) => `${e.event} ${live.find((n) => e.data.includes(`${n}:`)) ?? '?'}`);
      expect(created(seenBySome.slice(Number(recent)))).to.deep.equal(live.map((n) => `create-cache ${n}`));
      expect(created(seenByNone)).to.deep.equal(live.map((n) => `create-cache ${n}`));
      expect(ids(seenByNone)).to.deep.equal(ids(seenBySome.slice(Number(recent))));
    });
  });
});
