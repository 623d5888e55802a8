import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createGunzip, deflateRawSync, deflateSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { multipart } from '../support/multipart';
import { basicAuth, rawRequest, rawStream } from '../support/raw-http';
import { useServer } from '../support/server';

const admin = basicAuth('admin');

describe('content codings (docs/reference/http.md#compression)', () => {
  const server = useServer({ maxContentLength: 100_000 });
  const client = server.as('admin');
  let n = 0;
  const freshCache = async () => {
    const name = `z${++n}`;
    await client.createCache(name);
    return name;
  };

  describe('request bodies with Content-Encoding', () => {
    it('stores a gzip entry value decompressed', async () => {
      const c = await freshCache();
      const value = 'hello '.repeat(500);
      const put = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, {
        method: 'PUT', body: gzipSync(value), headers: { ...admin, 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' },
      });
      expect(put.status).to.equal(204);
      const got = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { headers: admin });
      expect(got.headers['content-encoding']).to.equal(undefined);
      expect(got.body.toString()).to.equal(value);
    });

    it('accepts zlib-wrapped deflate, raw deflate, x-gzip and a case-insensitive name', async () => {
      const c = await freshCache();
      const bodies: Array<[string, string, Buffer]> = [
        ['a', 'deflate', deflateSync('zlib wrapped')],
        ['b', 'DEFLATE', deflateRawSync('raw deflate')],
        ['c', 'x-gzip', gzipSync('old name')],
        ['d', 'identity', Buffer.from('not encoded')],
      ];
      for (const [key, coding, body] of bodies) {
        const r = await rawRequest(server.url, `/rest/v2/caches/${c}/${key}`, { method: 'PUT', body, headers: { ...admin, 'Content-Encoding': coding } });
        expect(r.status, coding).to.equal(204);
      }
      expect((await client.get(`/rest/v2/caches/${c}/a`)).text).to.equal('zlib wrapped');
      expect((await client.get(`/rest/v2/caches/${c}/b`)).text).to.equal('raw deflate');
      expect((await client.get(`/rest/v2/caches/${c}/c`)).text).to.equal('old name');
      expect((await client.get(`/rest/v2/caches/${c}/d`)).text).to.equal('not encoded');
    });

    it('creates a cache from a gzip-compressed configuration', async () => {
      const config = JSON.stringify({ 'local-cache': { expiration: { lifespan: '60000' } } });
      const r = await rawRequest(server.url, '/rest/v2/caches/zipped-config', {
        method: 'POST', body: gzipSync(config), headers: { ...admin, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      });
      expect(r.status).to.equal(200);
      const stored = await client.get('/rest/v2/caches/zipped-config?action=config');
      expect(stored.json()).to.deep.equal({ 'zipped-config': { 'local-cache': { expiration: { lifespan: '60000' } } } });
    });

    it('answers 413 and stores nothing when the body inflates past max-content-length', async () => {
      const c = await freshCache();
      const bomb = gzipSync(Buffer.alloc(5_000_000)); // ~5 KB on the wire, 50 times the limit inflated
      expect(bomb.length).to.be.below(100_000);
      const r = await rawRequest(server.url, `/rest/v2/caches/${c}/bomb`, { method: 'PUT', body: bomb, headers: { ...admin, 'Content-Encoding': 'gzip' } });
      expect(r.status).to.equal(413);
      expect(r.headers.connection).to.equal('close');
      expect((await client.get(`/rest/v2/caches/${c}/bomb`)).status).to.equal(404);
    });

    it('answers 413 for a chunked plain body over the limit, with the connection closed', async () => {
      const c = await freshCache();
      const r = await rawRequest(server.url, `/rest/v2/caches/${c}/big`, { method: 'PUT', body: Buffer.alloc(150_000, 7), chunked: 16_384, headers: admin });
      expect(r.status).to.equal(413);
      expect(r.headers.connection).to.equal('close');
      expect((await client.get(`/rest/v2/caches/${c}/big`)).status).to.equal(404);
    });

    it('answers 400 for corrupt or truncated gzip and stores nothing', async () => {
      const c = await freshCache();
      const corrupt = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { method: 'PUT', body: 'plain text, not gzip', headers: { ...admin, 'Content-Encoding': 'gzip' } });
      expect(corrupt.status).to.equal(400);
      expect(corrupt.body.toString()).to.match(/^The request body is not valid gzip data \(Content-Encoding: gzip\): /);
      const whole = gzipSync('x'.repeat(1000));
      const truncated = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { method: 'PUT', body: whole.subarray(0, whole.length - 6), headers: { ...admin, 'Content-Encoding': 'gzip' } });
      expect(truncated.status).to.equal(400);
      const badDeflate = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { method: 'PUT', body: Buffer.from([0x78, 0x9c, 1, 2, 3, 4]), headers: { ...admin, 'Content-Encoding': 'deflate' } });
      expect(badDeflate.status).to.equal(400);
      expect((await client.get(`/rest/v2/caches/${c}/k`)).status).to.equal(404);
    });

    it('answers 415 for a coding it does not speak, and for stacked codings', async () => {
      const c = await freshCache();
      for (const coding of ['br', 'gzip, deflate']) {
        const r = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { method: 'PUT', body: 'v', headers: { ...admin, 'Content-Encoding': coding } });
        expect(r.status, coding).to.equal(415);
        expect(r.body.toString()).to.contain('is not supported');
      }
      expect((await client.get(`/rest/v2/caches/${c}/k`)).status).to.equal(404);
    });

    it('restores a backup uploaded as a gzip-compressed multipart body; the zip is downloaded as it is', async () => {
      const c = await freshCache();
      await client.put(`/rest/v2/caches/${c}/k`, 'kept');
      expect((await client.post('/rest/v2/container/backups/zb', '{}', { 'Content-Type': 'application/json' })).status).to.equal(202);
      await until(async () => (await client.head('/rest/v2/container/backups/zb')).status === 200);
      const download = await rawRequest(server.url, '/rest/v2/container/backups/zb', { headers: { ...admin, 'Accept-Encoding': 'gzip' } });
      expect(download.headers['content-type']).to.equal('application/zip');
      expect(download.headers['content-encoding'], 'a zip is compressed already').to.equal(undefined);
      const zip = download.body;
      expect(zip.subarray(0, 2).toString()).to.equal('PK');
      await client.delete(`/rest/v2/caches/${c}`);
      const { body, contentType } = multipart([{ name: 'backup', content: zip, filename: 'zb.zip', contentType: 'application/zip' }]);
      const restore = await rawRequest(server.url, '/rest/v2/container/restores/zr', {
        method: 'POST', body: gzipSync(body), headers: { ...admin, 'Content-Type': contentType, 'Content-Encoding': 'gzip' },
      });
      expect(restore.status, restore.body.toString()).to.equal(202);
      await until(async () => (await client.head('/rest/v2/container/restores/zr')).status === 201);
      expect((await client.get(`/rest/v2/caches/${c}/k`)).text).to.equal('kept');
    });

    it('takes an empty body labelled gzip as empty', async () => {
      const c = await freshCache();
      const r = await rawRequest(server.url, `/rest/v2/caches/${c}/empty`, { method: 'PUT', body: Buffer.alloc(0), headers: { ...admin, 'Content-Encoding': 'gzip' } });
      expect(r.status).to.equal(204);
      expect((await client.get(`/rest/v2/caches/${c}/empty`)).text).to.equal('');
    });
  });

  describe('responses with Accept-Encoding', () => {
    it('compresses with gzip or deflate when asked, adds Vary, and not otherwise', async () => {
      const c = await freshCache();
      const value = 'compress me '.repeat(100);
      await client.put(`/rest/v2/caches/${c}/k`, value);
      const gz = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { headers: { ...admin, 'Accept-Encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).to.equal('gzip');
      expect(gz.headers.vary).to.equal('Accept-Encoding');
      expect(Number(gz.headers['content-length'])).to.equal(gz.body.length);
      expect(gunzipSync(gz.body).toString()).to.equal(value);
      const df = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { headers: { ...admin, 'Accept-Encoding': 'deflate' } });
      expect(df.headers['content-encoding']).to.equal('deflate');
      expect(inflateSync(df.body).toString()).to.equal(value);
      const plain = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { headers: admin });
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(plain.headers.vary).to.equal(undefined);
      expect(plain.body.toString()).to.equal(value);
    });

    it('chooses by q-value as Netty does: the better of gzip and deflate, * for gzip, q=0 refused', async () => {
      const c = await freshCache();
      await client.put(`/rest/v2/caches/${c}/k`, 'v');
      const choices: Array<[string, string | undefined]> = [
        ['gzip;q=0.5, deflate', 'deflate'],
        ['deflate;q=0.5, gzip;q=0.8', 'gzip'],
        ['gzip, deflate, br', 'gzip'],
        ['*', 'gzip'],
        ['gzip;q=0, *', 'deflate'],
        ['gzip;q=0', undefined],
        ['identity', undefined],
        ['br', undefined],
      ];
      for (const [accept, expected] of choices) {
        const r = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { headers: { ...admin, 'Accept-Encoding': accept } });
        expect(r.headers['content-encoding'], accept).to.equal(expected);
      }
    });

    it('answers HEAD with the Content-Encoding and Vary a GET gets, without Content-Length or body', async () => {
      const c = await freshCache();
      await client.put(`/rest/v2/caches/${c}/k`, 'value '.repeat(100));
      const gzip = { ...admin, 'Accept-Encoding': 'gzip' };
      const get = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { headers: gzip });
      const head = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { method: 'HEAD', headers: gzip });
      expect(head.status).to.equal(200);
      expect(head.headers['content-encoding']).to.equal(get.headers['content-encoding']).and.to.equal('gzip');
      expect(head.headers.vary).to.equal('Accept-Encoding');
      expect(head.headers['content-type']).to.equal(get.headers['content-type']);
      expect(head.headers.etag).to.equal(get.headers.etag);
      expect(head.headers['content-length'], 'the uncompressed length GET does not send').to.equal(undefined);
      expect(head.body.length).to.equal(0);
      const plain = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { method: 'HEAD', headers: admin });
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(plain.headers['content-length']).to.equal('600');
    });

    it('leaves 204 and 304 answers untouched', async () => {
      const c = await freshCache();
      await client.put(`/rest/v2/caches/${c}/k`, 'value');
      const gzip = { ...admin, 'Accept-Encoding': 'gzip' };
      const etag = (await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { headers: gzip })).headers.etag!;
      const notModified = await rawRequest(server.url, `/rest/v2/caches/${c}/k`, { headers: { ...gzip, 'If-None-Match': etag } });
      expect(notModified.status).to.equal(304);
      expect(notModified.headers['content-encoding']).to.equal(undefined);
      const put = await rawRequest(server.url, `/rest/v2/caches/${c}/k2`, { method: 'PUT', body: 'x', headers: gzip });
      expect(put.status).to.equal(204);
      expect(put.headers['content-encoding']).to.equal(undefined);
      expect(put.body.length).to.equal(0);
    });

    it('sends bodies of compressed types (images, archives…) as they are, with their length (the original: compressed again)', async () => {
      const file = readFileSync(join(dirname(require.resolve('swagger-ui-dist/package.json')), 'favicon-32x32.png'));
      const png = await rawRequest(server.url, '/swagger-ui/favicon-32x32.png', { headers: { 'Accept-Encoding': 'gzip, deflate' } });
      expect(png.status).to.equal(200);
      expect(png.headers['content-type']).to.equal('image/png');
      expect(png.headers['content-encoding']).to.equal(undefined);
      expect(png.headers.vary).to.equal(undefined);
      expect(png.headers['content-length']).to.equal(String(file.length));
      expect(png.body.equals(file)).to.equal(true);
      const js = await rawRequest(server.url, '/swagger-ui/swagger-initializer.js', { headers: { 'Accept-Encoding': 'gzip' } });
      expect(js.headers['content-encoding'], 'text beside it still is compressed').to.equal('gzip');
    });

    it('compresses error texts and streamed key listings', async () => {
      const missing = await rawRequest(server.url, '/rest/v2/caches/nope-missing/k', { headers: { ...admin, 'Accept-Encoding': 'gzip' } });
      expect(missing.status).to.equal(404);
      expect(gunzipSync(missing.body).toString()).to.contain('ISPN012010');
      const c = await freshCache();
      for (let i = 0; i < 50; i++) await client.put(`/rest/v2/caches/${c}/key${i}`, 'v');
      const keys = await rawRequest(server.url, `/rest/v2/caches/${c}?action=keys`, { headers: { ...admin, 'Accept-Encoding': 'gzip' } });
      expect(keys.headers['content-encoding']).to.equal('gzip');
      expect(keys.headers['content-length']).to.equal(undefined);
      expect((JSON.parse(gunzipSync(keys.body).toString()) as string[]).length).to.equal(50);
    });

    it('delivers each server-sent event while the compressed stream stays open', async () => {
      const c = await freshCache();
      const res = await rawStream(server.url, `/rest/v2/caches/${c}?action=listen`, { headers: { ...admin, 'Accept-Encoding': 'gzip', Accept: 'text/plain' } });
      try {
        expect(res.statusCode).to.equal(200);
        expect(res.headers['content-encoding']).to.equal('gzip');
        expect(res.headers['content-type']).to.equal('text/event-stream');
        const text = collectText(res.pipe(createGunzip()));
        await client.put(`/rest/v2/caches/${c}/first`, 'v');
        await text.waitFor('data: first');
        await client.put(`/rest/v2/caches/${c}/second`, 'v');
        await text.waitFor('data: second');
      } finally {
        res.destroy();
      }
    });
  });
});

/** Text arriving on a stream, with a wait for a fragment (generous bound: a loaded machine is slow). */
function collectText(stream: NodeJS.ReadableStream) {
  let text = '';
  const waiters: Array<() => void> = [];
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (const w of waiters.splice(0)) w();
  });
  stream.on('error', () => undefined);
  return {
    async waitFor(fragment: string, timeoutMs = 10_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!text.includes(fragment)) {
        if (Date.now() > deadline) throw new Error(`'${fragment}' did not arrive; got ${JSON.stringify(text)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
  };
}

async function until(done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('still in progress');
}
