import { expect } from 'chai';
import type { Client } from '../support/client';
import { requestWithHost } from '../support/raw-http';
import { useServer } from '../support/server';

/**
 * What a web page may make a browser do to a local grid (docs/security.md#browsers):
 * a cross-site page must not change anything (CORS refuses foreign origins on every request, simple
 * ones included), and a page whose name was re-pointed at 127.0.0.1 (DNS rebinding) must not reach
 * the server at all (Host check).
 */

const SCRIPT = '// mode=local,language=javascript\n"pwned"';

/** What a cross-site `<form enctype="text/plain" method="post">` or `fetch(…, {mode: 'no-cors'})` sends: no preflight. */
function crossSitePost(client: Client, path: string): ReturnType<Client['post']> {
  return client.post(path, SCRIPT, { Origin: 'https://attacker.example', 'Content-Type': 'text/plain' });
}

async function taskNames(admin: Client): Promise<string[]> {
  return (await admin.get('/rest/v2/tasks?type=user')).json<Array<{ name: string }>>().map((t) => t.name);
}

describe('Browsers: a cross-site simple POST', () => {
  for (const auth of [false, true]) {
    describe(auth ? 'with authentication (credentials a browser would attach)' : 'under --no-auth', () => {
      const server = useServer({ authEnabled: auth });
      const caller = auth ? server.as('admin') : server.anonymous();

      it('cannot upload a task: 403 with a reason, nothing stored', async () => {
        const r = await crossSitePost(caller, '/rest/v2/tasks/evil');
        expect(r.status).to.equal(403);
        expect(r.text).to.include("Origin 'https://attacker.example' is not allowed");
        expect(await taskNames(caller)).to.not.include('evil');
      });

      it('cannot run a task that exists', async () => {
        expect((await caller.post('/rest/v2/tasks/hello', SCRIPT, { 'Content-Type': 'text/plain' })).status).to.equal(200);
        const r = await crossSitePost(caller, '/rest/v2/tasks/hello?action=exec');
        expect(r.status).to.equal(403);
        expect(r.text).to.not.include('pwned');
      });

      it('cannot write an entry, create a cache or stop the server', async () => {
        await caller.createCache('victim');
        expect((await crossSitePost(caller, '/rest/v2/caches/victim/k')).status).to.equal(403);
        expect((await caller.get('/rest/v2/caches/victim/k')).status).to.equal(404);
        expect((await crossSitePost(caller, '/rest/v2/caches/other')).status).to.equal(403);
        expect((await caller.head('/rest/v2/caches/other')).status).to.equal(404);
        expect((await crossSitePost(caller, '/rest/v2/server?action=stop')).status).to.equal(403);
        expect((await caller.get('/rest/v2/caches')).status).to.equal(200);
      });

      it('still works from the same machine without Origin (curl, scripts)', async () => {
        expect((await caller.post('/rest/v2/tasks/mine', SCRIPT, { 'Content-Type': 'text/plain' })).status).to.equal(200);
        expect(await taskNames(caller)).to.include('mine');
      });
    });
  }
});

describe('Browsers: the Host check on a loopback address', () => {
  const noAuth = { authEnabled: false };
  const server = useServer({ ...noAuth, allowedHosts: ['grid.test', '.corp.example'], properties: { 'grid.server.rest.allowed-hosts': 'from-property.test' } });
  let port: string;

  before(async () => {
    port = new URL(server.url).port;
  });

  const get = (host: string, headers: Record<string, string> = {}) => requestWithHost(server.url, 'GET', '/rest/v2/caches', { Host: host, ...headers });

  it('refuses a foreign Host with 403 and a reason (DNS rebinding), even when Origin matches it', async () => {
    for (const headers of [{}, { Origin: `http://attacker.example:${port}` }] as Array<Record<string, string>>) {
      const r = await get(`attacker.example:${port}`, headers);
      expect(r.status).to.equal(403);
      expect(r.text).to.equal(`Host 'attacker.example:${port}' is not allowed: add it to allowed-hosts (or grid.server.rest.allowed-hosts) to reach this server by that name`);
    }
    const write = await requestWithHost(server.url, 'POST', '/rest/v2/tasks/rebound', { Host: `attacker.example:${port}`, 'Content-Type': 'text/plain' }, SCRIPT);
    expect(write.status).to.equal(403);
    expect((await server.anonymous().get('/rest/v2/tasks?type=user')).text).to.not.include('rebound');
  });

  it('accepts localhost, 127.0.0.1, [::1] and *.localhost with the port, and without it', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `app.localhost:${port}`, 'localhost', `LOCALHOST:${port}`]) {
      expect((await get(host)).status, host).to.equal(200);
    }
  });

  it('accepts IP addresses (a literal address cannot be rebound)', async () => {
    for (const host of [`192.168.1.20:${port}`, `[fe80::1]:${port}`]) expect((await get(host)).status, host).to.equal(200);
  });

  it('accepts the configured names: allowed-hosts, the property, .suffix for sub-domains', async () => {
    for (const host of [`grid.test:${port}`, `from-property.test:${port}`, `a.corp.example:${port}`]) expect((await get(host)).status, host).to.equal(200);
    for (const host of [`corp.example:${port}`, `grid.test.attacker.example:${port}`, `evilcorp.example:${port}`]) {
      expect((await get(host)).status, host).to.equal(403);
    }
  });
});

describe('Browsers: allowed-hosts *', () => {
  const server = useServer({ allowedHosts: ['*'] });

  it('turns the Host check off (for a proxy that rewrites Host)', async () => {
    const basic = 'Basic ' + Buffer.from('admin:admin-pw').toString('base64');
    expect((await requestWithHost(server.url, 'GET', '/rest/v2/caches', { Host: 'anything.example', Authorization: basic })).status).to.equal(200);
  });
});

describe('Browsers: what an API answer opened in a browser may do', () => {
  const server = useServer();
  const BROWSER = { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64)', Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
  // what an application user (WRITE) can store: an XHTML document, served back as application/xml
  const XHTML = '<html xmlns="http://www.w3.org/1999/xhtml"><body><script>fetch("/rest/v2/server?action=stop", {method: "POST"})</script></body></html>';

  before(async () => {
    await server.as('admin').createCache('docs', { 'local-cache': { encoding: { 'media-type': 'application/xml' } } });
    expect((await server.as('application').put('/rest/v2/caches/docs/page', XHTML, { 'Content-Type': 'application/xml' })).status).to.equal(204);
  });

  it('an entry a writer stored as XHTML is a sandboxed document: no script, no form, no origin', async () => {
    const r = await server.as('admin').get('/rest/v2/caches/docs/page', BROWSER);
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/xml/);
    // no script-src: scripts fall back to default-src 'self', never inline; sandbox: no origin at all
    expect(r.headers.get('content-security-policy')).to.equal(
      "default-src 'self' data:; style-src 'self' 'unsafe-inline'; base-uri 'self'; form-action 'self'; frame-src 'self'; frame-ancestors 'self'; object-src 'none'; sandbox");
  });

  it('errors of the API are sandboxed too', async () => {
    const r = await server.anonymous().get('/rest/v2/caches/docs/page', BROWSER);
    expect(r.status).to.equal(401);
    expect(r.headers.get('content-security-policy')).to.match(/; sandbox$/);
  });

  it('the pages grid serves as applications (Swagger UI) keep their scripts: same policy, no sandbox', async () => {
    const r = await server.anonymous().get('/swagger-ui/', BROWSER);
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-security-policy')).to.equal(
      "default-src 'self' data:; style-src 'self' 'unsafe-inline'; base-uri 'self'; form-action 'self'; frame-src 'self'; frame-ancestors 'self'; object-src 'none'");
  });
});
