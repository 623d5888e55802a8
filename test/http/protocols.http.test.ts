import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useServer } from '../support/server';
import { challengeFor, digestAuthorization } from '../support/digest';
import { eventually } from '../support/poll';
import { basic, curlTransport, h2Transport, http1Transport, type Transport } from '../support/transports';
import { needTool } from '../support/tools';

/**
 * The same requests over every way a client can reach grid (docs/reference/http.md#protocols):
 * HTTP/1.1 and HTTP/2 on the plain port (prior knowledge and `Upgrade: h2c`), and on the TLS port
 * h2 or http/1.1 as ALPN picks — with real clients: node:http, node:https, node:http2 and curl.
 */
interface Way {
  name: string;
  /** What a GET is answered with. */
  version: '1.1' | '2';
  tool?: string;
  make(ports: { plain: string; tls: string; ca: Buffer }): Transport;
}

const WAYS: Way[] = [
  { name: 'HTTP/1.1, node:http', version: '1.1', make: (p) => http1Transport(p.plain) },
  { name: 'h2c prior knowledge, node:http2', version: '2', make: (p) => h2Transport(p.plain) },
  { name: 'h2c prior knowledge, curl --http2-prior-knowledge', version: '2', tool: 'curl', make: (p) => curlTransport(p.plain, 'prior', ['--http2-prior-knowledge']) },
  { name: 'h2c by Upgrade, curl --http2', version: '2', tool: 'curl', make: (p) => curlTransport(p.plain, 'upgrade', ['--http2']) },
  { name: 'TLS + ALPN h2, node:http2', version: '2', make: (p) => h2Transport(p.tls, { ca: p.ca }) },
  { name: 'TLS + ALPN http/1.1, node:https', version: '1.1', make: (p) => http1Transport(p.tls, { ca: p.ca }) },
  { name: 'TLS + ALPN h2, curl --http2 -k', version: '2', tool: 'curl', make: (p) => curlTransport(p.tls, 'tls h2', ['--http2', '-k']) },
  { name: 'TLS + ALPN http/1.1, curl --http1.1 -k', version: '1.1', tool: 'curl', make: (p) => curlTransport(p.tls, 'tls http/1.1', ['--http1.1', '-k']) },
];

const CACHE = '/rest/v2/caches/protocols';

describe('every route over every protocol: HTTP/1.1, h2c (prior knowledge, Upgrade), TLS + ALPN (h2, http/1.1)', () => {
  const server = useServer({ tlsPort: 0 });
  let ports: { plain: string; tls: string; ca: Buffer };

  before(async () => {
    ports = { plain: server.url, tls: server.running.tls!.url, ca: readFileSync(join(server.dataDir, 'tls', 'self-signed-cert.pem')) };
    await server.as('admin').createCache('protocols');
  });

  WAYS.forEach((way, i) => {
    describe(way.name, () => {
      let t: Transport;
      const key = `key-${i}`;

      before(function () {
        if (way.tool) needTool(this, way.tool, way.name);
        t = way.make(ports);
      });
      after(() => t?.close());

      it(`answers a GET over HTTP/${way.version}`, async () => {
        const r = await t.request('GET', '/rest/v2/caches', { headers: basic('admin') });
        expect(r.status).to.equal(200);
        expect(r.version).to.equal(way.version);
      });

      it('answers 401 with the Digest and Basic challenges to a request without credentials', async () => {
        const r = await t.request('GET', `${CACHE}/${key}`);
        expect(r.status).to.equal(401);
        expect(r.headers['www-authenticate']).to.match(/Digest realm="default".*algorithm=MD5/).and.match(/Basic realm="default"/);
      });

      it('stores with PUT and Digest (after the challenge), reads back with GET and Basic', async () => {
        const path = `${CACHE}/${key}`;
        for (const algorithm of ['MD5', 'SHA-256'] as const) {
          const challenge = await t.request('PUT', path, { body: 'v' });
          expect(challenge.status).to.equal(401);
          const authorization = digestAuthorization({ challenge: challengeFor(challenge.headers['www-authenticate'], algorithm), user: 'admin', password: 'admin-pw', method: 'PUT', uri: path });
          const put = await t.request('PUT', path, { body: `value over ${way.name}`, headers: { Authorization: authorization, 'Content-Type': 'text/plain' } });
          expect(put.status, put.text).to.equal(204);
        }
        const get = await t.request('GET', path, { headers: basic('application') });
        expect(get.status).to.equal(200);
        expect(get.text).to.equal(`value over ${way.name}`);
        expect(get.headers.etag).to.match(/^-?\d+$/);
      });

      it('answers HEAD with the status and Content-Length, no body', async () => {
        const r = await t.request('HEAD', `${CACHE}/${key}`, { headers: basic('admin') });
        expect(r.status).to.equal(200);
        expect(r.headers['content-length']).to.equal(String(Buffer.byteLength(`value over ${way.name}`)));
        expect(r.body.length).to.equal(0);
      });

      it('answers an unknown cache with 404 and the original text, and a forbidden write with 403', async () => {
        const missing = await t.request('GET', '/rest/v2/caches/no-such-cache/k', { headers: basic('admin') });
        expect(missing.status).to.equal(404);
        expect(missing.text).to.equal("ISPN012010: Cache with name 'no-such-cache' not found amongst the configured caches");
        const forbidden = await t.request('PUT', `${CACHE}/${key}`, { body: 'x', headers: basic('observer') });
        expect(forbidden.status).to.equal(403);
      });

      it('streams the keys as one JSON array', async () => {
        const r = await t.request('GET', `${CACHE}?action=keys`, { headers: basic('admin') });
        expect(r.status).to.equal(200);
        expect(r.headers['content-type']).to.match(/^application\/json/);
        expect(JSON.parse(r.text)).to.include(key);
      });

      it('delivers a server-sent event', async () => {
        const events = await t.stream(`${CACHE}?action=listen`, { ...basic('admin'), Accept: 'text/plain' });
        try {
          expect(events.status).to.equal(200);
          expect(events.version).to.equal(way.version);
          await server.as('admin').put(`${CACHE}/sse-${i}`, 'x');
          await eventually(() => events.text().includes(`event: cache-entry-created\ndata: sse-${i}\n\n`), 5000, 'the event');
        } finally {
          events.close();
        }
      });
    });
  });

  describe('streamed downloads and uploads over HTTP/2', () => {
    for (const [name, tls] of [['h2c', false], ['TLS h2', true]] as const) {
      it(`${name}: the server report, a backup archive and a restore upload`, async () => {
        const t = h2Transport(tls ? ports.tls : ports.plain, { ca: ports.ca });
        try {
          const report = await t.request('GET', '/rest/v2/server/report', { headers: basic('admin') });
          expect(report.status).to.equal(200);
          expect(report.body.subarray(0, 2).toString('hex')).to.equal('1f8b');

          const backup = `/rest/v2/container/backups/over-${tls ? 'tls' : 'h2c'}`;
          expect((await t.request('POST', backup, { headers: basic('admin') })).status).to.equal(202);
          let done = await t.request('HEAD', backup, { headers: basic('admin') });
          for (let n = 0; done.status === 202 && n < 400; n++) {
            await new Promise((r) => setTimeout(r, 25));
            done = await t.request('HEAD', backup, { headers: basic('admin') });
          }
          const zip = await t.request('GET', backup, { headers: basic('admin') });
          expect(zip.status).to.equal(200);
          expect(zip.body.subarray(0, 2).toString()).to.equal('PK');

          const form = new FormData();
          form.append('backup', new Blob([zip.body], { type: 'application/zip' }), 'backup.zip');
          const multipart = new Request('http://localhost/', { method: 'POST', body: form });
          const restore = `/rest/v2/container/restores/from-${tls ? 'tls' : 'h2c'}`;
          const upload = await t.request('POST', restore, {
            body: Buffer.from(await multipart.arrayBuffer()), headers: { ...basic('admin'), 'Content-Type': multipart.headers.get('content-type')! },
          });
          expect(upload.status, upload.text).to.equal(202);
          let restored = await t.request('HEAD', restore, { headers: basic('admin') });
          for (let n = 0; restored.status === 202 && n < 400; n++) {
            await new Promise((r) => setTimeout(r, 25));
            restored = await t.request('HEAD', restore, { headers: basic('admin') });
          }
          expect(restored.status).to.equal(201);
        } finally {
          t.close();
        }
      });
    }

    it('refuses a body above max-content-length with 413 over HTTP/2 too', async () => {
      const t = h2Transport(ports.plain);
      try {
        const big = await t.request('PUT', `${CACHE}/big`, { body: Buffer.alloc(10 * 1000 * 1000 + 1, 'x'), headers: basic('admin') });
        expect(big.status).to.equal(413);
        expect((await t.request('GET', `${CACHE}/big`, { headers: basic('admin') })).status).to.equal(404);
      } finally {
        t.close();
      }
    });
  });
});
