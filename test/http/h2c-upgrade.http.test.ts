import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { join } from 'node:path';
import { useServer } from '../support/server';
import { basic, curlTransport, http1Transport } from '../support/transports';
import { needTool } from '../support/tools';

const ENTRY = '/rest/v2/caches/upgrade/k';

/** Writes raw bytes on a new connection; resolves with all the server sent until it closed. */
function rawExchange(port: number, request: string, after?: (received: string) => string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    let followed = false;
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.setTimeout(15_000, () => reject(new Error(`no close; got ${received}`)));
    socket.on('data', (c: Buffer) => {
      received += c.toString('latin1');
      const next = !followed && after?.(received);
      if (next) {
        followed = true;
        socket.write(next);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
  });
}

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; out: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 20_000 }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, out: stdout + stderr }));
  });
}

describe('Upgrade: h2c on the plain port (RFC 7540 §3.2)', () => {
  const server = useServer({ tlsPort: 0 });
  let upgradeHeaders: string;

  before(async () => {
    await server.as('admin').createCache('upgrade');
    await server.as('admin').put(ENTRY, 'hello');
    upgradeHeaders = `Host: 127.0.0.1\r\nAuthorization: ${basic('admin').Authorization}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n`;
  });

  describe('with curl --http2', () => {
    before(function () {
      needTool(this, 'curl', 'h2c upgrade with curl --http2');
    });

    it('answers 101 Switching Protocols, then the request over HTTP/2 on stream 1', async () => {
      const t = curlTransport(server.url, 'upgrade', ['--http2']);
      try {
        const r = await t.request('GET', ENTRY, { headers: basic('admin') });
        expect(r.interim).to.deep.equal([101]);
        expect(r.version).to.equal('2');
        expect(r.status).to.equal(200);
        expect(r.text).to.equal('hello');
      } finally {
        t.close();
      }
    });

    it('answers a request with a body over HTTP/1.1, without 101', async () => {
      const t = curlTransport(server.url, 'upgrade', ['--http2']);
      try {
        const r = await t.request('PUT', '/rest/v2/caches/upgrade/with-body', { body: 'v', headers: basic('admin') });
        expect(r.interim).to.deep.equal([]);
        expect(r.version).to.equal('1.1');
        expect(r.status).to.equal(204);
      } finally {
        t.close();
      }
    });
  });

  describe('with nghttp', () => {
    before(function () {
      needTool(this, 'nghttp', 'h2c upgrade with nghttp -u, package nghttp2-client');
    });

    it('nghttp -u upgrades and gets the answer on stream 1', async () => {
      const r = await run('nghttp', ['-nv', '-u', '-H', `authorization: ${basic('admin').Authorization}`, server.url + ENTRY]);
      expect(r.code, r.out).to.equal(0);
      expect(r.out).to.include('HTTP Upgrade response').and.include('recv (stream_id=1) :status: 200');
    });

    it('nghttp with prior knowledge, plain and over TLS, gets the value', async () => {
      for (const url of [server.url, server.running.tls!.url]) {
        const r = await run('nghttp', ['-H', `authorization: ${basic('admin').Authorization}`, url + ENTRY]);
        expect(r.code, r.out).to.equal(0);
        expect(r.stdout).to.equal('hello');
      }
    });
  });

  it('answers a malformed HTTP2-Settings over HTTP/1.1', async () => {
    const head = upgradeHeaders.replace('Connection: Upgrade, HTTP2-Settings', 'Connection: Upgrade, HTTP2-Settings, close');
    const reply = await rawExchange(server.running.port, `GET ${ENTRY} HTTP/1.1\r\n${head}HTTP2-Settings: not*base64url!\r\n\r\n`);
    expect(reply).to.match(/^HTTP\/1\.1 200 OK\r\n/);
    expect(reply).to.not.include('101');
    expect(reply.endsWith('hello')).to.equal(true);
  });

  it('answers Upgrade: websocket as a plain HTTP/1.1 request', async () => {
    const head = `GET ${ENTRY} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic('admin').Authorization}\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\n\r\n`;
    const reply = await rawExchange(server.running.port, head);
    expect(reply).to.match(/^HTTP\/1\.1 200 OK\r\n/);
    expect(reply.endsWith('hello')).to.equal(true);
  });

  it('closes the connection of a client that answers the 101 with something other than the HTTP/2 preface', async () => {
    const head = `GET ${ENTRY} HTTP/1.1\r\n${upgradeHeaders}HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n`;
    const reply = await rawExchange(server.running.port, head, (got) => (got.includes('\r\n\r\n') ? 'GET / HTTP/1.1\r\n\r\n' : undefined));
    expect(reply).to.equal('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n');
  });

  it('ignores Upgrade: h2c over TLS (h2c is for cleartext): an HTTP/1.1 answer', async () => {
    const ca = readFileSync(join(server.dataDir, 'tls', 'self-signed-cert.pem'));
    const status = await new Promise<string>((resolve, reject) => {
      const req = httpsRequest(server.running.tls!.url + ENTRY, {
        ca, ...{ ALPNProtocols: ['http/1.1'] },
        headers: { ...basic('admin'), Connection: 'Upgrade, HTTP2-Settings', Upgrade: 'h2c', 'HTTP2-Settings': 'AAMAAABkAAQCAAAAAAIAAAAA' },
      }, (res) => {
        res.resume();
        resolve(`${res.httpVersion} ${res.statusCode}`);
      });
      req.on('upgrade', () => reject(new Error('upgraded over TLS')));
      req.on('error', reject);
      req.end();
    });
    expect(status).to.equal('1.1 200');
  });

  it('keeps serving HTTP/1.1 keep-alive connections on the same port', async () => {
    const t = http1Transport(server.url);
    for (let i = 0; i < 3; i++) expect((await t.request('GET', ENTRY, { headers: basic('admin') })).text).to.equal('hello');
  });
});
