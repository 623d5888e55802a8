import { expect } from 'chai';
import { cpSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { rawRequest } from '../support/raw-http';
import { tempDir, useServer } from '../support/server';

const FIXTURE = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'console');
const SECRET = 'the secret outside the console directory';

/** index.html of the fixture as grid must serve it at /console/ (placeholders filled in). */
const servedIndex = (prefix = '') => `<base href="${prefix}/console/">`;

describe('the web console (docs/reference/management-plane.md#console)', () => {
  let site: string;

  before(() => {
    // site/console is the console; site/secret.txt is what no request may reach
    site = tempDir('grid-console-');
    const dir = join(site, 'console');
    cpSync(FIXTURE, dir, { recursive: true });
    writeFileSync(join(site, 'secret.txt'), SECRET);
    writeFileSync(join(dir, '.env'), SECRET);
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'big.bin'), Buffer.alloc(3 * 1024 * 1024, 0xab));
    symlinkSync(join(site, 'secret.txt'), join(dir, 'outside-link.txt'));
    symlinkSync(site, join(dir, 'up'));
    symlinkSync(join(dir, 'assets', 'style.css'), join(dir, 'inside-link.css'));
    utimesSync(join(dir, 'assets', 'app.js'), new Date('2026-01-02T03:04:05Z'), new Date('2026-01-02T03:04:05Z'));
  });
  after(() => rmSync(site, { recursive: true, force: true }));
  const server = useServer(() => ({ consoleDir: join(site, 'console') }));
  const get = (path: string, headers: Record<string, string> = {}) => rawRequest(server.url, path, { headers });

  describe('GET /', () => {
    it('redirects (307, empty body) to /console/welcome, without credentials', async () => {
      const r = await get('/');
      expect(r.status).to.equal(307);
      expect(r.headers.location).to.equal('/console/welcome');
      expect(r.body.length).to.equal(0);
    });
  });

  describe('GET /console/{path}', () => {
    it('serves index.html at /console/ with both placeholders filled in, anonymously', async () => {
      const r = await get('/console/');
      expect(r.status).to.equal(200);
      expect(r.headers['content-type']).to.equal('text/html; charset=utf-8');
      const html = r.body.toString();
      expect(html).to.contain(servedIndex());
      expect(html).to.contain('console at /console/, REST at /rest</p>');
      expect(html).to.not.contain('{{');
    });

    it('answers 301 to /console/ for /console', async () => {
      const r = await get('/console');
      expect(r.status).to.equal(301);
      expect(r.headers.location).to.equal('/console/');
    });

    it('serves config.js with the REST context path and a JavaScript type', async () => {
      const r = await get('/console/config.js');
      expect(r.status).to.equal(200);
      expect(r.headers['content-type']).to.equal('text/javascript; charset=utf-8');
      expect(r.body.toString()).to.contain("restContextPath: '/rest', basePath: '/console/'");
    });

    it('answers the application page for client-side routes, also /console/cache/<name> with dots', async () => {
      for (const path of ['/console/welcome', '/console/caches/deep/route', '/console/cache/my.cache.v2', '/console/cache/a/b.js', '/console/cache']) {
        const r = await get(path);
        expect(r.status, path).to.equal(200);
        expect(r.headers['content-type'], path).to.equal('text/html; charset=utf-8');
        expect(r.body.toString(), path).to.contain(servedIndex());
      }
    });

    it('serves other files byte for byte with their type, length and the original cache headers', async () => {
      const r = await get('/console/assets/app.js');
      expect(r.status).to.equal(200);
      expect(r.headers['content-type']).to.equal('text/javascript; charset=utf-8');
      expect(r.body.toString()).to.contain('window.__INFINISPAN_CONFIG__.restContextPath');
      expect(Number(r.headers['content-length'])).to.equal(r.body.length);
      expect(r.headers['cache-control']).to.equal('private, max-age=2678400');
      expect(r.headers['last-modified']).to.equal('Fri, 02 Jan 2026 03:04:05 GMT');
      expect(Date.parse(r.headers.expires!) - Date.now()).to.be.above(30 * 24 * 3600 * 1000);
      expect(r.headers.date).to.be.a('string');
      expect((await get('/console/assets/style.css')).headers['content-type']).to.equal('text/css; charset=utf-8');
    });

    it('streams a large file whole', async () => {
      const r = await get('/console/data/big.bin');
      expect(r.status).to.equal(200);
      expect(r.headers['content-type']).to.equal('application/octet-stream');
      expect(r.body.length).to.equal(3 * 1024 * 1024);
      expect(r.body.every((b) => b === 0xab)).to.equal(true);
    });

    it('answers 304 to If-Modified-Since at or after the file time', async () => {
      expect((await get('/console/assets/app.js', { 'If-Modified-Since': 'Fri, 02 Jan 2026 03:04:05 GMT' })).status).to.equal(304);
      expect((await get('/console/assets/app.js', { 'If-Modified-Since': 'Fri, 02 Jan 2026 03:04:04 GMT' })).status).to.equal(200);
    });

    it('answers 404 with a short reason for a missing file (the original: no body)', async () => {
      const r = await get('/console/missing.js');
      expect(r.status).to.equal(404);
      expect(r.body.toString()).to.equal('File not found');
    });

    it('refuses every path that would leave the console directory', async () => {
      const attempts = [
        '/console/../secret.txt',
        '/console/assets/../../secret.txt',
        '/console/%2e%2e/secret.txt',
        '/console/%2E%2E%2Fsecret.txt',
        '/console/assets/..%2F..%2Fsecret.txt',
        '/console/assets%5C..%5C..%5Csecret.txt',
        '/console/outside-link.txt',
        '/console/up/secret.txt',
        '/console/.env',
        '/console/index.html%00.js',
        `/console/${encodeURIComponent(join(site, 'secret.txt'))}`,
      ];
      for (const path of attempts) {
        const r = await get(path);
        expect(r.status, path).to.be.oneOf([400, 404]);
        expect(r.body.toString(), path).to.not.contain(SECRET);
      }
    });

    it('follows a symbolic link that stays inside the directory', async () => {
      const r = await get('/console/inside-link.css');
      expect(r.status).to.equal(200);
      expect(r.body.toString()).to.contain('font-family');
    });

    it('puts a plain X-Forwarded-Prefix before both paths and ignores any other', async () => {
      const proxied = await get('/console/', { 'X-Forwarded-Prefix': '/grid-proxy' });
      expect(proxied.body.toString()).to.contain(servedIndex('/grid-proxy'));
      expect(proxied.body.toString()).to.contain('REST at /grid-proxy/rest');
      const hostile = await get('/console/', { 'X-Forwarded-Prefix': '/"><script>alert(1)</script>' });
      expect(hostile.body.toString()).to.contain(servedIndex());
      expect(hostile.body.toString()).to.not.contain('<script>alert');
    });

    it('is compressed when asked, placeholders filled in', async () => {
      const r = await get('/console/welcome', { 'Accept-Encoding': 'gzip' });
      expect(r.headers['content-encoding']).to.equal('gzip');
      expect(gunzipSync(r.body).toString()).to.contain(servedIndex());
    });
  });

  describe('without --console', () => {
    const plain = useServer();

    it('answers /console/… with 404 and a sentence saying how to enable it; / still redirects', async () => {
      for (const path of ['/console/', '/console/welcome', '/console/index.html']) {
        const r = await rawRequest(plain.url, path);
        expect(r.status, path).to.equal(404);
        expect(r.body.toString(), path).to.contain('Start grid with --console DIR');
      }
      expect((await rawRequest(plain.url, '/')).status).to.equal(307);
    });
  });
});
