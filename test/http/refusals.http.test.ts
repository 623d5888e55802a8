import { connect as tlsConnect } from 'node:tls';
import { expect } from 'chai';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { useServer, withServer } from '../support/server';
import { SseReader } from '../support/sse';
import { h2Transport } from '../support/transports';
import { eventually } from '../support/poll';

// Every refusal is a clean 4xx (or 503) that says why (docs/security.md#refusals-always-say-why).

interface RawReply { status: number; head: string; body: string }

/** Sends raw bytes on a new connection and reads until the server closes it (or `waitMs` passes). */
function raw(url: string, bytes: string, waitMs = 5000): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (c: Buffer) => { data += c.toString('latin1'); });
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const [head, ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body: rest.join('\r\n\r\n') });
    });
    socket.write(bytes);
  });
}

describe('refusals: every 4xx says why', () => {
  const server = useServer({ limits: { headersTimeout: 1000, requestTimeout: 3000 } });
  const admin = server.as('admin');

  describe("requests Node's HTTP parser refuses", () => {
    it('answers an unknown verb 403 with a reason', async () => {
      const r = await raw(server.url, 'FROB /rest/v2/caches HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect(r.status).to.equal(403);
      expect(r.body).to.contain('Unknown HTTP method');
    });

    it('answers a verb Node knows but the API does not (PATCH) 403 with a reason', async () => {
      const r = await admin.request('PATCH', '/rest/v2/caches');
      expect(r.status).to.equal(403);
      expect(r.text).to.equal('Unknown HTTP method');
    });

    it('answers a malformed request line or header 400 with a reason', async () => {
      for (const bytes of ['GET /x HTTP/1.1\r\nBad Header\r\n\r\n', 'GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n']) {
        const r = await raw(server.url, bytes);
        expect(r.status, bytes).to.equal(400);
        expect(r.body.trim(), bytes).to.not.equal('');
      }
    });

    it('answers a broken chunk in the body of an authenticated request 400 at once, and writes nothing', async () => {
      await admin.createCache('chunks');
      const auth = `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`;
      for (const chunks of ['3\r\nabc\r\nZZ\r\nabc\r\n0\r\n\r\n', 'ZZ\r\nabc\r\n0\r\n\r\n']) {
        const started = performance.now();
        const r = await raw(server.url, `PUT /rest/v2/caches/chunks/k HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}`, 8000);
        expect(r.status, chunks).to.equal(400);
        expect(r.body, chunks).to.contain('Invalid Transfer-Encoding or chunk');
        // generous bound: the socket closed after the answer, not after a time-out (it was 10 s)
        expect(performance.now() - started, 'answered before any time-out').to.be.below(5000);
      }
      expect((await admin.get('/rest/v2/caches/chunks/k')).status).to.equal(404);
    });

    it('answers oversized headers 413 with a reason', async () => {
      const r = await raw(server.url, `GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`);
      expect(r.status).to.equal(413);
      expect(r.body).to.contain('too large');
    });

    it('answers an Expect other than 100-continue 417 with a reason', async () => {
      const r = await raw(server.url, 'GET /rest/v2/container/health/status HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok\r\n\r\n');
      expect(r.status).to.equal(417);
      expect(r.body).to.contain('100-continue');
    });

    it('closes a connection whose headers never finish (slowloris) with 408 and a reason', async () => {
      const r = await raw(server.url, 'GET /rest/v2/caches HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n', 8000);
      expect(r.status).to.equal(408);
      expect(r.body).to.contain('not received in time');
    });
  });

  describe('4xx answers the original sends without a body', () => {
    it('carry a short reason; HEAD stays empty', async () => {
      await admin.createCache('reasons');
      const missing = await admin.get('/rest/v2/caches/reasons/none');
      expect([missing.status, missing.text]).to.deep.equal([404, 'Entry not found']);
      const head = await admin.head('/rest/v2/caches/reasons/none');
      expect([head.status, head.text]).to.deep.equal([404, '']);
      const media = await admin.post('/rest/v2/caches/other', 'x', { 'Content-Type': 'image/png' });
      expect(media.status).to.equal(415);
      expect(media.text).to.match(/^Unsupported media type 'image\/png' for a cache configuration: send application\/json/);
      const unauthorized = await server.anonymous().get('/rest/v2/caches');
      expect(unauthorized.status).to.equal(401);
      expect(unauthorized.text).to.match(/^Authentication required/);
      const big = await admin.put('/rest/v2/caches/reasons/k', Buffer.alloc(11 * 1000 * 1000));
      expect(big.status).to.equal(413);
      expect(big.text).to.contain('larger than');
    });
  });

  describe('configuration keys that name Object.prototype members', () => {
    const bodies: Array<[string, string, string]> = [
      ['application/json', '{"local-cache":{"__proto__":{"x":1}}}', '__proto__'],
      ['application/json', '{"__proto__":{"local-cache":{}}}', '__proto__'],
      ['application/json', '{"local-cache":{"constructor":1}}', 'constructor'],
      ['application/json', '{"local-cache":{"toString":{}}}', 'toString'],
      ['application/xml', '<local-cache><toString/></local-cache>', 'toString'],
      ['application/xml', '<local-cache constructor="1"/>', 'constructor'],
      ['application/yaml', 'localCache:\n  constructor: 1\n', 'constructor'],
      ['application/yaml', 'localCache:\n  __proto__:\n    a: 1\n', '__proto__'],
    ];
    for (const [type, body, key] of bodies) {
      it(`answers 400 naming '${key}' in ${type.split('/')[1]}: ${body.replace(/\n/g, ' ').slice(0, 40)}`, async () => {
        for (const path of ['/rest/v2/caches?action=convert', '/rest/v2/caches/proto-keys']) {
          const r = await admin.post(path, body, { 'Content-Type': type });
          expect(r.status, path).to.equal(400);
          expect(r.text).to.contain(key);
        }
      });
    }
  });

  describe('names with NUL, CR/LF or another control character (one rule for every resource)', () => {
    // C0 (NUL, CR LF, TAB), DEL and C1 (NEL): `/` and `..` are names like others (test/http/names.http.test.ts)
    const BAD = ['a%00b', 'a%0D%0Ab', 'a%09b', 'a%7F', 'a%C2%85b'];
    const creators: Array<[string, (name: string) => Promise<{ status: number; text: string }>]> = [
      ['cache', (n) => admin.post(`/rest/v2/caches/${n}`, '{"local-cache":{}}', { 'Content-Type': 'application/json' })],
      ['template', (n) => admin.post(`/rest/v2/caches/${n}`, '{"local-cache-configuration":{}}', { 'Content-Type': 'application/json' })],
      ['schema', (n) => admin.post(`/rest/v2/schemas/${n}`, 'message A { optional string s = 1; }')],
      ['task', (n) => admin.put(`/rest/v2/tasks/${n}`, '// mode=local,language=javascript\n1')],
      ['counter', (n) => admin.post(`/rest/v2/counters/${n}`, '{"weak-counter":{}}', { 'Content-Type': 'application/json' })],
      ['backup', (n) => admin.post(`/rest/v2/container/backups/${n}`, '{}', { 'Content-Type': 'application/json' })],
      ['restore', (n) => admin.post(`/rest/v2/container/restores/${n}`, '{"location":"/nonexistent.zip"}', { 'Content-Type': 'application/json' })],
    ];
    for (const [kind, create] of creators) {
      it(`refuses such ${kind} names with 400 and the rule`, async () => {
        for (const name of BAD) {
          const r = await create(name);
          expect(r.status, `${kind} ${name}`).to.equal(400);
          // a template is posted to /caches: its name is checked before its kind is known
          expect(r.text, `${kind} ${name}`).to.match(kind === 'template' ? /Invalid (cache|template) name/ : new RegExp(`Invalid ${kind} name`));
        }
      });
    }

    it('refuses such schema names written through ___protobuf_metadata too', async () => {
      const r = await admin.put('/rest/v2/caches/___protobuf_metadata/a%0Ab.proto', 'message A { optional string s = 1; }', { 'Content-Type': 'text/plain' });
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('Invalid schema name');
    });

    it('downloads a backup whose name is not ASCII (it answered 500: found by the fuzz soak)', async () => {
      expect((await admin.post('/rest/v2/container/backups/%E2%82%AC')).status).to.equal(202);
      let head = await admin.head('/rest/v2/container/backups/%E2%82%AC');
      for (let i = 0; i < 200 && head.status === 202; i++) {
        await new Promise((r) => setTimeout(r, 50));
        head = await admin.head('/rest/v2/container/backups/%E2%82%AC');
      }
      const r = await admin.get('/rest/v2/container/backups/%E2%82%AC');
      expect(r.status).to.equal(200);
      // the archive's own file name: the name percent-encoded, plain ASCII (docs/security.md "Names")
      expect(r.headers.get('content-disposition')).to.equal('attachment; filename=%E2%82%AC.zip');
    });

    it('still accepts names with dots, spaces and non-ASCII letters', async () => {
      expect((await admin.post('/rest/v2/caches/a.b%20c%C3%A4', '{"local-cache":{}}', { 'Content-Type': 'application/json' })).status).to.equal(200);
      expect((await admin.post('/rest/v2/schemas/pkg.v1', 'message A { optional string s = 1; }')).status).to.equal(201);
    });
  });
});

describe('refusals: caps on what one client holds open', () => {
  const server = useServer({ limits: { listenersPerUser: 2, listeners: 3, connectionsPerUser: 3, connections: 12 } });

  before(async () => {
    await server.as('admin').createCache('watched');
  });

  const basic = (role: string) => ({ Authorization: 'Basic ' + Buffer.from(`${role}:${role}-pw`).toString('base64') });

  describe('GET /rest/v2/caches/{cache}?action=listen', () => {
    it('answers 429 with a reason past listeners-per-user, 503 past listeners, and frees a place on close', async () => {
      const url = `${server.url}/rest/v2/caches/watched?action=listen`;
      const first = await SseReader.open(url, basic('admin'));
      const second = await SseReader.open(url, basic('admin'));
      const third = await fetch(url, { headers: basic('admin') });
      expect(third.status).to.equal(429);
      expect(await third.text()).to.contain('listeners-per-user');
      const other = await SseReader.open(url, basic('deployer'));
      const fourth = await fetch(url, { headers: basic('application') });
      expect(fourth.status).to.equal(503);
      expect(await fourth.text()).to.contain('limit listeners');
      first.close();
      // the server notices the closed stream on its own time; until then the place is still held
      let again = await SseReader.open(url, basic('admin'));
      await eventually(async () => {
        if (again.response.status === 200) return true;
        again.close();
        again = await SseReader.open(url, basic('admin'));
        return false;
      }, 10_000, 'the closed stream\'s place to be given back');
      for (const s of [second, other, again]) s.close();
    });
  });

  describe('connections', () => {
    it('answers 429 with a reason on a user\'s connection past connections-per-user', async () => {
      const sockets = await Promise.all([0, 1, 2, 3].map(() => raw(server.url,
        `GET /rest/v2/caches HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${basic('observer').Authorization}\r\nConnection: keep-alive\r\n\r\n`, 1500)));
      const statuses = sockets.map((s) => s.status).sort();
      expect(statuses.filter((s) => s === 200)).to.have.length(3);
      const refused = sockets.find((s) => s.status === 429)!;
      expect(refused.body).to.contain('connections-per-user');
    });

    it('counts an HTTP/2 connection once however many requests it carries, and frees it when it closes', async () => {
      const sessions = [0, 1, 2, 3].map(() => h2Transport(server.url));
      try {
        // more requests than connections-per-user on one connection: each stream is not a connection
        for (let i = 0; i < 5; i++) expect((await sessions[0].request('GET', '/rest/v2/caches', { headers: basic('monitor') })).status).to.equal(200);
        for (const s of sessions.slice(1, 3)) expect((await s.request('GET', '/rest/v2/caches', { headers: basic('monitor') })).status).to.equal(200);
        expect((await sessions[3].request('GET', '/rest/v2/caches', { headers: basic('monitor') })).status).to.equal(429);
        sessions[0].close();
        let status = 0;
        for (let i = 0; i < 200 && status !== 200; i++) {
          await new Promise((r) => setTimeout(r, 25));
          status = (await sessions[3].request('GET', '/rest/v2/caches', { headers: basic('monitor') })).status;
        }
        expect(status).to.equal(200);
      } finally {
        for (const s of sessions) s.close();
      }
    });

    it('answers 503 with a reason to a connection past the server-wide cap', async () => {
      const { hostname, port } = new URL(server.url);
      const held = await Promise.all(Array.from({ length: 12 }, () => new Promise<ReturnType<typeof connect>>((resolve) => {
        const s = connect(Number(port), hostname, () => resolve(s));
      })));
      await new Promise((r) => setTimeout(r, 100));
      const r = await raw(server.url, 'GET /rest/v2/container/health/status HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect(r.status).to.equal(503);
      expect(r.body).to.contain('limit connections');
      for (const s of held) s.destroy();
    });
  });
});

describe('refusals: per-user caps are per container (tenants have their own users)', () => {
  const server = useServer({ tenants: [{ name: 't1' }], limits: { listenersPerUser: 2, connectionsPerUser: 2 } });
  const basic = (role: string) => ({ Authorization: 'Basic ' + Buffer.from(`${role}:${role}-pw`).toString('base64') });

  before(async () => {
    for (const prefix of ['/rest', '/rest/t1']) {
      const r = await server.as('admin').post(`${prefix}/v2/caches/watched`, '{"local-cache":{}}', { 'Content-Type': 'application/json' });
      expect(r.status).to.equal(200);
    }
  });

  it("tenant t1's admin holding all its event streams leaves the default container's admin its own", async () => {
    const tenantUrl = `${server.url}/rest/t1/v2/caches/watched?action=listen`;
    const held = [await SseReader.open(tenantUrl, basic('admin')), await SseReader.open(tenantUrl, basic('admin'))];
    const third = await fetch(tenantUrl, { headers: basic('admin') });
    expect(third.status, 'the tenant user is at its own cap').to.equal(429);
    const mine = await SseReader.open(`${server.url}/rest/v2/caches/watched?action=listen`, basic('admin'));
    expect(mine.response.status, 'another container\'s user of the same name').to.equal(200);
    for (const s of [...held, mine]) s.close();
  });

  it("tenant t1's admin holding all its connections leaves the default container's admin its own", async () => {
    const get = (path: string) => raw(server.url,
      `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${basic('admin').Authorization}\r\nConnection: keep-alive\r\n\r\n`, 1500);
    // all at once: each socket stays open until its time-out, so the four are held together
    const [own, ...tenant] = await Promise.all([get('/rest/v2/caches'), ...[0, 1, 2].map(() => get('/rest/t1/v2/caches'))]);
    expect(tenant.map((r) => r.status).sort()).to.deep.equal([200, 200, 429]);
    expect(own.status, 'another container\'s user of the same name').to.equal(200);
  });
});

describe('refusals: the connection cap on the TLS port', () => {
  it('counts TLS connections against the same server-wide cap and drops those past it before the handshake', async () => {
    await withServer({ tlsPort: 0, limits: { connections: 4 } }, async (server) => {
      const { hostname, port } = new URL(server.running.tls!.url);
      const held = await Promise.all(Array.from({ length: 4 }, () => new Promise<ReturnType<typeof connect>>((resolve) => {
        const s = connect(Number(port), hostname, () => resolve(s));
      })));
      await new Promise((r) => setTimeout(r, 100));
      const refused = await new Promise<string>((resolve) => {
        const s = tlsConnect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => resolve('handshake'));
        s.on('error', () => resolve('dropped'));
        s.on('close', () => resolve('dropped'));
      });
      expect(refused).to.equal('dropped');
      for (const s of held) s.destroy();
      await new Promise((r) => setTimeout(r, 100));
      const ok = await new Promise<string>((resolve) => {
        const s = tlsConnect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => { s.end(); resolve('handshake'); });
        s.on('error', () => resolve('dropped'));
      });
      expect(ok, 'a place frees when a connection closes').to.equal('handshake');
    });
  });
});

describe('refusals: a client that goes away', () => {
  it('is logged at debug, never as an error with a stack', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(...chunk.toString().split('\n').filter(Boolean)); done(); } });
    await withServer({ logLevel: 'debug', stdout: sink }, async (server) => {
      await server.as('admin').createCache('aborted');
      const { hostname, port } = new URL(server.url);
      await new Promise<void>((resolve) => {
        const s = connect(Number(port), hostname, () => {
          s.write(`PUT /rest/v2/caches/aborted/k HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic ${Buffer.from('admin:admin-pw').toString('base64')}\r\nContent-Length: 100000\r\n\r\n${'x'.repeat(1000)}`);
          setTimeout(() => { s.resetAndDestroy(); resolve(); }, 100);
        });
      });
      const parsed = () => lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown });
      await eventually(() => parsed().some((l) => l.level === 20 && /client/.test(l.msg)), 10_000, 'the debug line about the client going away');
      expect(parsed().filter((l) => l.level >= 50), 'error entries').to.deep.equal([]);
      expect((await server.as('admin').get('/rest/v2/caches/aborted/k')).status).to.equal(404);
    });
  });
});
