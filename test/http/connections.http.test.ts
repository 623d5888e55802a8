import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { CANCEL, RawH2Client } from '../support/h2-raw';
import { startTestServer, useServer, withServer, type SharedServer } from '../support/server';
import { eventually } from '../support/poll';
import { basic } from '../support/transports';

/**
 * Connections are shared between client addresses: one address (or a handful) holding half-sent
 * requests cannot take every connection of the server, refusals do not flood the log, and HTTP/2
 * connections whose streams wait on the client are closed. Several client addresses are played
 * from loopback: 127.0.0.2, 127.0.0.3… are all this machine, and the server sees each apart.
 */

const HALF_SENT = 'GET /rest/v2/caches HTTP/1.1\r\nHost: localhost\r\n';

/** A TCP connection from `from` to `port` that sends `bytes` and stays open; `answer` is what came back. */
async function hold(port: number, from: string, bytes = HALF_SENT): Promise<{ socket: Socket; answer: () => string; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let got = '';
    let closed = false;
    const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () => {
      socket.write(bytes);
      resolve({ socket, answer: () => got, closed: () => closed });
    });
    socket.on('data', (c: Buffer) => { got += c.toString('latin1'); });
    socket.on('close', () => { closed = true; });
    socket.on('error', () => undefined);
    socket.once('connect', () => socket.off('error', reject));
    socket.once('error', reject);
  });
}

/** One GET of the health probe over HTTP/1.1 (TLS when `tls`), from `from`. */
function probe(port: number, from: string, tls = false): Promise<{ status: number; text: string }> {
  const request = tls ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port, localAddress: from, path: '/rest/v2/container/health/status', agent: false, rejectUnauthorized: false,
    }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const settle = () => new Promise((r) => setTimeout(r, 200));

describe('connections: each client address gets its share', () => {
  const server = useServer({ tlsPort: 0, limits: { connections: 8, connectionsPerAddress: 3 } });
  let port: number;
  let tlsPort: number;
  const held: Socket[] = [];

  before(async () => {
    port = server.running.port;
    tlsPort = Number(new URL(server.running.tls!.url).port);
  });
  afterEach(async () => {
    held.splice(0).forEach((s) => s.destroy());
    await settle();
  });

  it('the server tells loopback addresses apart (each counts on its own)', async () => {
    for (const from of ['127.0.0.2', '127.0.0.3']) {
      for (let i = 0; i < 3; i++) held.push((await hold(port, from)).socket);
    }
    await settle();
    const [second, third] = [await hold(port, '127.0.0.2'), await hold(port, '127.0.0.3')];
    held.push(second.socket, third.socket);
    await eventually(() => second.closed() && third.closed(), 5000, 'both refused');
    expect((await probe(port, '127.0.0.4')).status, 'a third address is still served').to.equal(200);
  });

  it('plain port: an address holding half-sent requests gets 429 past connections-per-address while another address is answered', async () => {
    const attempts = await Promise.all(Array.from({ length: 8 }, () => hold(port, '127.0.0.2')));
    held.push(...attempts.map((a) => a.socket));
    await eventually(() => attempts.filter((a) => a.closed()).length === 5, 5000, 'five refused');
    const refused = attempts.filter((a) => a.closed()).map((a) => a.answer());
    expect(refused.every((r) => r.startsWith('HTTP/1.1 429 ') && r.includes('limit connections-per-address')), refused[0]).to.equal(true);
    for (let i = 0; i < 5; i++) {
      const r = await probe(port, '127.0.0.3');
      expect([r.status, r.text]).to.deep.equal([200, 'HEALTHY']);
    }
  });

  it('TLS port: connections that never say hello count against their address, another address still completes its handshake and is answered', async () => {
    const attempts = await Promise.all(Array.from({ length: 8 }, () => hold(tlsPort, '127.0.0.2', '')));
    held.push(...attempts.map((a) => a.socket));
    await eventually(() => attempts.filter((a) => a.closed()).length === 5, 5000, 'five dropped');
    const r = await probe(tlsPort, '127.0.0.3', true);
    expect([r.status, r.text]).to.deep.equal([200, 'HEALTHY']);
  });

  it('when the server is full, a new address takes the place of the newest connection of the address holding most', async () => {
    const attempts: Array<Awaited<ReturnType<typeof hold>>> = [];
    for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) {
      for (let i = 0; i < 3 && attempts.length < 8; i++) attempts.push(await hold(port, from));
    }
    held.push(...attempts.map((a) => a.socket));
    await settle();
    const r = await probe(port, '127.0.0.5');
    expect([r.status, r.text]).to.deep.equal([200, 'HEALTHY']);
    await eventually(() => attempts.some((a) => a.closed()), 5000, 'one connection closed');
    expect(attempts.map((a, i) => (a.closed() ? i : -1)).filter((i) => i >= 0), 'the newest of 127.0.0.2').to.deep.equal([2]);
  });

  it('when the server is full of addresses holding one connection each, a new one gets 503', async () => {
    for (let i = 0; i < 8; i++) held.push((await hold(port, `127.0.0.${2 + i}`)).socket);
    await settle();
    const refused = await hold(port, '127.0.0.20', 'GET /rest/v2/container/health/status HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await eventually(() => refused.closed(), 5000, 'refused');
    expect(refused.answer()).to.match(/^HTTP\/1\.1 503 [\s\S]*limit connections\)/);
    held.pop()!.destroy();
    await settle();
    expect((await probe(port, '127.0.0.20')).status, 'a place frees when a connection closes').to.equal(200);
  });
});

describe('connections: refusals are logged once per interval with a count', () => {
  it('a flood of refused connections writes a bounded number of lines that add up to every refusal', async () => {
    const lines: Array<{ msg: string; count?: number; limit?: string }> = [];
    const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(...chunk.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l))); done(); } });
    const server = await startTestServer({ logLevel: 'warn', stdout: sink, limits: { connections: 3 } });
    const port = server.running.port;
    const held: Socket[] = [];
    const FLOOD = 150;
    try {
      // three addresses holding one each: no newcomer may take their place
      for (let i = 0; i < 3; i++) held.push((await hold(port, `127.0.0.${2 + i}`)).socket);
      await settle();
      for (let i = 0; i < FLOOD; i += 25) {
        const batch = await Promise.all(Array.from({ length: 25 }, () => hold(port, `127.0.0.${5 + (i % 10)}`)));
        await eventually(() => batch.every((b) => b.closed()), 5000, 'the batch refused');
      }
    } finally {
      held.forEach((s) => s.destroy());
      await server.close();
    }
    const refusals = lines.filter((l) => l.msg === 'connections refused: too many open');
    expect(refusals.length, 'log lines about refusals').to.be.within(1, 3);
    expect(refusals.reduce((n, l) => n + (l.count ?? 0), 0), 'refusals counted').to.equal(FLOOD);
  });
});

describe('connections: HTTP/2 streams and sessions that wait on the client', () => {
  const AUTH = basic('admin');

  /** A server with these two time-outs (the other one long), for the length of `test`. */
  async function withTimeouts(limits: { keepAliveTimeout: number; requestTimeout: number }, test: (server: SharedServer) => Promise<void>): Promise<void> {
    await withServer({ limits }, async (server) => {
      await server.as('admin').createCache('h2');
      await test(server);
    });
  }

  it('closes a session that sends nothing more after keep-alive-timeout, whatever its half-sent streams', () => withTimeouts({ keepAliveTimeout: 1000, requestTimeout: 120_000 }, async (server) => {
    const client = await RawH2Client.open(server.running.port);
    try {
      const frames: Buffer[] = [];
      for (let i = 0; i < 50; i++) frames.push(client.request(1 + 2 * i, 'PUT', `/rest/v2/caches/h2/idle-${i}`, {}, false));
      await client.send(Buffer.concat(frames));
      // before, the session was never closed (seen open after 140 s)
      await eventually(() => client.closed, 8000, 'the session closed');
      expect(client.goawayCode(), 'a GOAWAY before closing').to.not.equal(undefined);
    } finally {
      client.close();
    }
  }));

  it('keeps a session whose request is still being handled; closes it once idle without one', () => withTimeouts({ keepAliveTimeout: 500, requestTimeout: 120_000 }, async (server) => {
    const client = await RawH2Client.open(server.running.port);
    try {
      await client.send(client.request(1, 'GET', '/rest/v2/caches/h2?action=listen', AUTH));
      await eventually(() => client.answered().has(1), 5000, 'the event stream open');
      await new Promise((r) => setTimeout(r, 1500));
      expect(client.closed, 'an event stream waits on the server').to.equal(false);
      await client.send(client.reset(1));
      await eventually(() => client.closed, 5000, 'the session closed once idle');
    } finally {
      client.close();
    }
  }));

  it('resets a stalled request stream after request-timeout on a session that stays busy, and writes nothing', () => withTimeouts({ keepAliveTimeout: 120_000, requestTimeout: 1000 }, async (server) => {
    const client = await RawH2Client.open(server.running.port);
    try {
      await client.send(client.request(1, 'PUT', '/rest/v2/caches/h2/stalled', { ...AUTH, 'content-type': 'text/plain', 'content-length': '10' }, false));
      let id = 3;
      let polls = 0;
      // the session has traffic all along (other requests), the stalled stream none
      await eventually(() => {
        if (++polls % 20 === 0) {
          void client.send(client.request(id, 'GET', '/rest/v2/caches/h2/none', AUTH));
          id += 2;
        }
        return client.resets(CANCEL) === 1;
      }, 8000, 'the stalled stream reset');
      expect(client.closed).to.equal(false);
      expect(client.answered().has(1)).to.equal(false);
      expect((await server.as('admin').get('/rest/v2/caches/h2/stalled')).status).to.equal(404);
    } finally {
      client.close();
    }
  }));
});
