import { expect } from 'chai';
import { connect } from 'node:net';
import { basicAuth } from '../support/raw-http';
import { useServer } from '../support/server';

/** Writes `text` on one connection at once and collects everything the server sends until it closes or goes quiet. */
function exchange(port: number, text: string, quietMs = 400): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let got = '';
    let timer = setTimeout(() => socket.destroy(), quietMs * 4);
    socket.on('data', (chunk) => {
      got += chunk.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(() => socket.destroy(), quietMs);
    });
    socket.on('close', () => { clearTimeout(timer); resolve(got); });
    socket.on('error', reject);
  });
}

const statuses = (answers: string) => [...answers.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));

describe('HTTP/1.1 pipelining and refused requests (RFC 9112 §9.3.2, docs/reference/http.md#routing)', () => {
  const server = useServer();
  let port: number;
  const auth = `Authorization: ${basicAuth('admin').Authorization}\r\n`;
  const put = (path: string, body: string) => `PUT ${path} HTTP/1.1\r\nHost: localhost\r\n${auth}Content-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  const req = (method: string, path: string) => `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${auth}\r\n`;

  before(async () => {
    port = server.running.port;
    await server.as('admin').createCache('pipe');
  });

  it('runs pipelined requests in their order: a PUT then a DELETE of the same key leaves no entry, a PUT then a GET reads it', async () => {
    for (let i = 0; i < 5; i++) {
      expect(statuses(await exchange(port, put(`/rest/v2/caches/pipe/d${i}`, 'two') + req('DELETE', `/rest/v2/caches/pipe/d${i}`)))).to.deep.equal([204, 204]);
      expect((await server.as('admin').get(`/rest/v2/caches/pipe/d${i}`)).status).to.equal(404);
      const read = await exchange(port, put(`/rest/v2/caches/pipe/g${i}`, 'one') + req('GET', `/rest/v2/caches/pipe/g${i}`));
      expect(statuses(read)).to.deep.equal([204, 200]);
      expect(read.endsWith('one')).to.equal(true);
    }
  });

  it('answers the requests before one the parser refuses, then refuses it: a write is never reported lost', async () => {
    const answers = await exchange(port, put('/rest/v2/caches/pipe/v1', 'v11') + 'FOO /rest/v2/caches/pipe/e1 HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(statuses(answers)).to.deep.equal([204, 403]);
    expect(answers).to.contain('Unknown HTTP method');
    expect((await server.as('admin').get('/rest/v2/caches/pipe/v1')).text).to.equal('v11');
  });

  it('answers CONNECT with 403 Unknown HTTP method, as every verb the original does not know', async () => {
    const answers = await exchange(port, 'CONNECT localhost:1 HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(statuses(answers)).to.deep.equal([403]);
    expect(answers).to.contain('Unknown HTTP method');
    expect((await server.as('admin').get('/rest/v2/caches/pipe/v1')).status).to.equal(200);
  });
});
