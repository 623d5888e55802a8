import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { rawRequest } from '../support/raw-http';
import { useServer } from '../support/server';

/** The scripts and stylesheets a page names, as the browser resolves them against the page's URL. */
function assetsOf(html: string, page: string): string[] {
  return [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1], `http://grid${page}`).pathname);
}

describe('GET /swagger-ui', function () {
  this.timeout(60_000);
  const server = useServer();

  it('redirects to /swagger-ui/, where the page\'s relative links resolve, without credentials', async () => {
    const res = await rawRequest(server.url, '/swagger-ui');
    expect(res.status).to.equal(301);
    expect(new URL(res.headers.location!, 'http://grid/swagger-ui').pathname).to.equal('/swagger-ui/');
    expect(new URL(res.headers.location!, 'http://grid/prefix/swagger-ui').pathname, 'relative, for a proxy\'s prefix').to.equal('/prefix/swagger-ui/');
  });

  it('serves the page at /swagger-ui/, and every script and stylesheet it names, anonymously with authentication on', async () => {
    const page = await server.anonymous().get('/swagger-ui/');
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    const assets = assetsOf(page.text, '/swagger-ui/');
    expect(assets).to.include.members(['/swagger-ui/swagger-ui-bundle.js', '/swagger-ui/swagger-initializer.js', '/swagger-ui/swagger-ui.css']);
    for (const asset of assets) {
      const res = await server.anonymous().get(asset);
      expect(res.status, asset).to.equal(200);
      expect(res.headers.get('content-type'), asset).to.match(/^(text\/javascript|text\/css|image\/png)/);
      expect(res.bytes.length, asset).to.be.above(0);
    }
    const bundle = await server.anonymous().get('/swagger-ui/swagger-ui-bundle.js');
    expect(bundle.text).to.contain('SwaggerUIBundle');
  });

  it('initializes the page with this server\'s document, which a browser on the page can load anonymously', async () => {
    const init = await server.anonymous().get('/swagger-ui/swagger-initializer.js');
    expect(init.status).to.equal(200);
    expect(init.headers.get('content-type')).to.match(/^text\/javascript/);
    expect(init.text).to.contain('SwaggerUIBundle(').and.not.contain('petstore');
    expect(() => new Function(init.text), 'the initializer parses as a script').not.to.throw();
    const url = /url: '([^']+)'/.exec(init.text)![1];
    const resolved = new URL(url, 'http://grid/swagger-ui/index.html').pathname;
    expect(resolved).to.equal('/rest/v2/openapi');
    const doc = await server.anonymous().get(resolved);
    expect(doc.status).to.equal(200);
    expect(doc.json<{ openapi: string }>().openapi).to.match(/^3\.1\./);
  });
});

describe('GET /swagger-ui/{file}', function () {
  this.timeout(60_000);
  const server = useServer();

  it('sends the package\'s files with cache headers, and 304 when unchanged since If-Modified-Since', async () => {
    const res = await rawRequest(server.url, '/swagger-ui/swagger-ui.css');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/css; charset=utf-8');
    expect(res.headers['cache-control']).to.equal('private, max-age=2678400');
    expect(res.headers.expires).to.be.a('string');
    const modified = res.headers['last-modified']!;
    expect(Date.parse(modified)).to.be.a('number').and.not.NaN;
    const again = await rawRequest(server.url, '/swagger-ui/swagger-ui.css', { headers: { 'If-Modified-Since': modified } });
    expect(again.status).to.equal(304);
    expect(again.body.length).to.equal(0);
  });

  it('serves index.html by name, and compresses for a client that asks', async () => {
    const res = await rawRequest(server.url, '/swagger-ui/index.html', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.status).to.equal(200);
    expect(res.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(res.body).toString()).to.contain('swagger-initializer.js');
  });

  it('answers 404 for any name that is not one of the page\'s files, traversals included', async () => {
    for (const path of [
      '/swagger-ui/package.json', '/swagger-ui/index.js', '/swagger-ui/absolute-path.js', '/swagger-ui/README.md', '/swagger-ui/nope.js',
      '/swagger-ui/..%2Fpackage.json', '/swagger-ui/..%2F..%2Fpackage.json', '/swagger-ui/%2e%2e', '/swagger-ui/.%2Findex.html',
      '/swagger-ui/index.html%00.js', '/swagger-ui/constructor', '/swagger-ui/__proto__', '/swagger-ui/../package.json',
    ]) {
      const res = await rawRequest(server.url, path);
      expect(res.status, path).to.equal(404);
      expect(res.body.toString(), path).not.to.contain('"name"');
    }
  });

  it('is served with authentication on, to a caller without credentials and to one with them', async () => {
    expect((await server.anonymous().get('/swagger-ui/favicon-32x32.png')).status).to.equal(200);
    const res = await server.as('observer').get('/swagger-ui/favicon-32x32.png');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('image/png');
  });

  it('refuses writes: 405', async () => {
    expect((await server.anonymous().put('/swagger-ui/index.html', 'x')).status).to.equal(405);
  });
});
