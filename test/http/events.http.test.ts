import { expect } from 'chai';
import { ManualClock } from '../../src/util/clock';
import { startTestServer, useServer, withServer } from '../support/server';
import { SseReader } from '../support/sse';
import { eventually } from '../support/poll';

const basic = (user: string) => ({ Authorization: 'Basic ' + Buffer.from(`${user}:${user}-pw`).toString('base64') });

describe('server-sent events', () => {
  const clock = new ManualClock();
  const server = useServer({ clock, expirationInterval: 20 });
  const admin = server.as('admin');

  before(async () => {
    await admin.createCache('existing');
  });

  describe('GET /rest/v2/container/config?action=listen', () => {
    it('streams create, update and remove events of caches and templates', async () => {
      const sse = await SseReader.open(`${server.url}/rest/v2/container/config?action=listen`, { ...basic('admin'), Accept: 'application/json' });
      try {
        expect(sse.response.headers.get('content-type')).to.equal('text/event-stream');
        await admin.createCache('listen1', { 'local-cache': { encoding: { 'media-type': 'text/plain' } } });
        const [created] = await sse.next(1);
        expect(created.event).to.equal('create-cache');
        expect(JSON.parse(created.data)).to.deep.equal({ infinispan: { 'cache-container': { caches: { listen1: { 'local-cache': { encoding: { 'media-type': 'text/plain' } } } } } } });
        await admin.put('/rest/v2/caches/listen1', '{"local-cache":{"encoding":{"media-type":"text/plain"},"expiration":{"lifespan":"1000"}}}', { 'Content-Type': 'application/json' });
        expect((await sse.next(1))[0].event).to.equal('update-cache');
        await admin.delete('/rest/v2/caches/listen1');
        expect(await sse.next(1)).to.deep.equal([{ event: 'remove-cache', data: 'listen1' }]);
        await admin.post('/rest/v2/caches/t1', '{"local-cache-configuration":{}}', { 'Content-Type': 'application/json' });
        expect((await sse.next(1))[0].event).to.equal('create-template');
        await admin.delete('/rest/v2/caches/t1');
        expect(await sse.next(1)).to.deep.equal([{ event: 'remove-template', data: 't1' }]);
      } finally {
        sse.close();
      }
    });

    it('replays the current state first and speaks YAML by default', async () => {
      const sse = await SseReader.open(`${server.url}/rest/v2/container?action=listen&includeCurrentState=true`, basic('admin'));
      try {
        const events = await sse.next(3);
        expect(events.map((e) => e.event)).to.deep.equal(['create-cache', 'create-cache', 'create-cache']);
        expect(events.map((e) => e.data).join('\n')).to.contain('existing:').and.to.contain('___protobuf_metadata:');
      } finally {
        sse.close();
      }
    });

    it('writes XML events as the original\'s full document: declaration, namespace, <caches>', async () => {
      const sse = await SseReader.open(`${server.url}/rest/v2/container/config?action=listen`, { ...basic('admin'), Accept: 'application/xml' });
      try {
        await admin.createCache('listen-xml', { 'local-cache': { encoding: { 'media-type': 'text/plain' } } });
        expect(await sse.next(1)).to.deep.equal([{
          event: 'create-cache',
          data: '<?xml version="1.0"?><infinispan xmlns="urn:infinispan:config:15.0"><cache-container><caches>' +
            '<local-cache name="listen-xml"><encoding media-type="text/plain"/></local-cache></caches></cache-container></infinispan>',
        }]);
      } finally {
        sse.close();
      }
    });

    it('sends no empty data: line after a document that ends with a newline (YAML)', async () => {
      const sse = await SseReader.open(`${server.url}/rest/v2/container/config?action=listen`, basic('admin'));
      try {
        await admin.createCache('listen-yaml', { 'local-cache': { encoding: { 'media-type': 'text/plain' } } });
        const [created] = await sse.next(1);
        expect(created.data).to.contain('listen-yaml:').and.not.match(/\n$/);
        const block = sse.blocks[sse.blocks.length - 1];
        expect(block[0]).to.equal('event: create-cache');
        expect(block[1]).to.match(/^id: \d+$/);
        expect(block.slice(2).every((line) => line.startsWith('data: ') && line !== 'data: ')).to.equal(true);
      } finally {
        sse.close();
      }
    });

    it('is ADMIN only', async () => {
      expect((await server.as('deployer').get('/rest/v2/container/config?action=listen')).status).to.equal(403);
    });
  });

  describe('GET /rest/v2/caches/{name}?action=listen', () => {
    it('streams created, modified, removed and expired entry events with the key as data', async () => {
      await admin.createCache('watched');
      await admin.put('/rest/v2/caches/watched/before', 'v');
      const sse = await SseReader.open(`${server.url}/rest/v2/caches/watched?action=listen&includeCurrentState=true`, basic('application'));
      try {
        expect(await sse.next(1)).to.deep.equal([{ event: 'cache-entry-created', data: 'before' }]);
        await admin.put('/rest/v2/caches/watched/k', 'v1');
        await admin.put('/rest/v2/caches/watched/k', 'v2');
        await admin.delete('/rest/v2/caches/watched/k');
        await admin.put('/rest/v2/caches/watched/short', 'v', { timeToLiveSeconds: '1' });
        expect(await sse.next(4)).to.deep.equal([
          { event: 'cache-entry-created', data: 'k' },
          { event: 'cache-entry-modified', data: 'k' },
          { event: 'cache-entry-removed', data: 'k' },
          { event: 'cache-entry-created', data: 'short' },
        ]);
        clock.advance(2000);
        expect(await sse.next(1)).to.deep.equal([{ event: 'cache-entry-expired', data: 'short' }]);
      } finally {
        sse.close();
      }
    });

    it('hears schema registrations, changes and removals on ___protobuf_metadata as entry events, error keys included', async () => {
      // keys are Java Strings: as text they are the names (as JSON they would be quoted)
      const sse = await SseReader.open(`${server.url}/rest/v2/caches/___protobuf_metadata?action=listen`, { ...basic('admin'), Accept: 'text/plain' });
      try {
        const person = 'package demo;\nmessage Person {\n  optional string name = 1;\n}\n';
        expect((await admin.post('/rest/v2/schemas/person', person)).status).to.equal(201);
        expect(await sse.next(1)).to.deep.equal([{ event: 'cache-entry-created', data: 'person.proto' }]);
        await admin.put('/rest/v2/schemas/person', person.replace('name', 'nickname'));
        expect(await sse.next(1)).to.deep.equal([{ event: 'cache-entry-modified', data: 'person.proto' }]);
        // a file with errors brings its .errors key and the list of failing files
        await admin.put('/rest/v2/caches/___protobuf_metadata/broken.proto', 'package demo;\nmessage Broken {\n  messoge int32 x = 1;\n}\n');
        expect(await sse.next(3)).to.deep.equal([
          { event: 'cache-entry-created', data: 'broken.proto' },
          { event: 'cache-entry-created', data: 'broken.proto.errors' },
          { event: 'cache-entry-created', data: '.errors' },
        ]);
        await admin.delete('/rest/v2/schemas/broken');
        expect(await sse.next(3)).to.deep.equal([
          { event: 'cache-entry-removed', data: 'broken.proto.errors' },
          { event: 'cache-entry-removed', data: '.errors' },
          { event: 'cache-entry-removed', data: 'broken.proto' },
        ]);
        const replay = await SseReader.open(`${server.url}/rest/v2/caches/___protobuf_metadata?action=listen&includeCurrentState=true`, { ...basic('admin'), Accept: 'text/plain' });
        try {
          expect(await replay.next(1)).to.deep.equal([{ event: 'cache-entry-created', data: 'person.proto' }]);
        } finally {
          replay.close();
        }
        await admin.delete('/rest/v2/caches/___protobuf_metadata/person.proto');
        expect(await sse.next(1)).to.deep.equal([{ event: 'cache-entry-removed', data: 'person.proto' }]);
      } finally {
        sse.close();
      }
    });

    it('answers 404 for a missing cache and 403 without LISTEN', async () => {
      expect((await admin.get('/rest/v2/caches/nope?action=listen')).status).to.equal(404);
      expect((await server.as('observer').get('/rest/v2/caches/existing?action=listen')).status).to.equal(403);
    });

    it('ends open streams when the server closes, so shutdown is not held up', async () => {
      const other = await startTestServer();
      const entries = await SseReader.open(`${other.url}/rest/v2/caches/___script_cache?action=listen`, basic('admin'));
      const config = await SseReader.open(`${other.url}/rest/v2/container/config?action=listen`, basic('admin'));
      const closed = other.close();
      // ended by the server, not cut off when the close stops waiting for running requests
      expect(await entries.ending()).to.equal('end');
      expect(await config.ending()).to.equal('end');
      await closed;
    });

    it('leaves no listener behind after 1,000 connect/disconnect cycles', async function () {
      this.timeout(60_000);
      const cache = server.running.services.manager.require('existing').cache;
      for (let i = 0; i < 1000; i++) {
        const sse = await SseReader.open(`${server.url}/rest/v2/caches/existing?action=listen`, basic('admin'));
        sse.close();
      }
      await eventually(() => cache.listeners.size === 0 && server.running.services.manager.events.size === 0, 10_000, 'the closed streams to be dropped');
      expect((await admin.put('/rest/v2/caches/existing/k', 'still writes')).status).to.equal(204);
    });
  });

  describe('POST /rest/v2/container?action=shutdown', () => {
    it('ends the container\'s open event streams, which a new listen is then refused (503)', async () => {
      await withServer({}, async (other) => {
        await other.as('admin').createCache('watched');
        const entries = await SseReader.open(`${other.url}/rest/v2/caches/watched?action=listen`, basic('admin'));
        const config = await SseReader.open(`${other.url}/rest/v2/container?action=listen`, basic('admin'));
        expect((await other.as('admin').post('/rest/v2/container?action=shutdown')).status).to.equal(204);
        expect(await entries.ending()).to.equal('end');
        expect(await config.ending()).to.equal('end');
        expect((await other.as('admin').get('/rest/v2/caches/watched?action=listen')).status).to.equal(503);
        expect(other.running.services.manager.events.size, 'no listener left').to.equal(0);
      });
    });
  });
});
