import { expect } from 'chai';
import type { CorsRuleConfig } from '../../src/config/cors-rules';
import type { Client, Reply } from '../support/client';
import { requestWithHost } from '../support/raw-http';
import { useServer } from '../support/server';

/**
 * CORS as a browser meets it (docs/reference/http.md#cors): a preflight (OPTIONS with Origin
 * and Access-Control-Request-Method, never credentials) and then the actual request, per kind of
 * rule: the cors-allow property, the built-in localhost rules, configured rules.
 */

/** The original's "allow everything" lists (R/RequestHeader.java, R/ResponseHeader.java; CacheResourceTest). */
const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'];
const ALL_REQUEST_HEADERS = [
  'Accept', 'Authorization', 'Cache-Control', 'Content-encoding', 'Content-Type', 'created', 'extended', 'flags',
  'If-Modified-Since', 'If-None-Match', 'If-UnModified-Since', 'key-content-type', 'lastUsed', 'maxIdleTimeSeconds',
  'timeToLiveSeconds', 'User-Agent',
];
const ALL_RESPONSE_HEADERS = [
  'Cache-Control', 'Cluster-Primary-Owner', 'Cluster-Backup-Owners', 'Cluster-Node-Name', 'Cluster-Server-Address',
  'Content-Length', 'Content-Type', 'created', 'Date', 'Etag', 'Expires', 'key-content-type', 'Last-Modified', 'lastUsed',
  'location', 'maxIdleTimeSeconds', 'timeToLiveSeconds', 'Transfer-Encoding', 'value-content-type', 'WWW-Authenticate',
];

const ENTRY = '/rest/v2/caches/web/k';

function list(value: string | null): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '').sort();
}

function preflight(client: Client, origin: string, method = 'PUT', requestHeaders?: string): Promise<Reply> {
  const headers: Record<string, string> = { Origin: origin, 'Access-Control-Request-Method': method };
  if (requestHeaders) headers['Access-Control-Request-Headers'] = requestHeaders;
  return client.request('OPTIONS', ENTRY, { headers });
}

/** Preflight answered as the original does: 200, no body. */
function expectPreflightShape(r: Reply): void {
  expect(r.status).to.equal(200);
  expect(r.text).to.equal('');
  expect(r.headers.get('content-length')).to.equal('0');
}

function expectAllowEverythingPreflight(r: Reply, origin: string): void {
  expectPreflightShape(r);
  expect(r.headers.get('access-control-allow-origin')).to.equal(origin);
  expect(r.headers.get('access-control-allow-credentials')).to.equal('true');
  expect(list(r.headers.get('access-control-allow-methods'))).to.deep.equal([...ALL_METHODS].sort());
  expect(list(r.headers.get('access-control-allow-headers'))).to.deep.equal([...ALL_REQUEST_HEADERS].sort());
  expect(r.headers.get('vary')).to.match(/\bOrigin\b/i);
}

function expectAllowEverythingActual(r: Reply, origin: string): void {
  expect(r.headers.get('access-control-allow-origin')).to.equal(origin);
  expect(r.headers.get('access-control-allow-credentials')).to.equal('true');
  expect(list(r.headers.get('access-control-expose-headers'))).to.deep.equal([...ALL_RESPONSE_HEADERS].sort());
  expect(r.headers.get('vary')).to.match(/\bOrigin\b/i);
}

async function givenEntry(admin: Client): Promise<void> {
  await admin.createCache('web');
  expect((await admin.put(ENTRY, 'v', { 'Content-Type': 'text/plain', timeToLiveSeconds: '600' })).status).to.equal(204);
}

describe('CORS: the grid.server.rest.cors-allow property', () => {
  const logged: string[] = [];
  const server = useServer({
    logLevel: 'warn',
    stdout: { write: (line: string) => { logged.push(line); } },
    properties: { 'grid.server.rest.cors-allow': 'https://app.example.com, not-an-origin ,http://second.example:8080' },
    // a configured rule for the same origin: the property comes first and wins
    corsRules: [{ name: 'narrow', allowCredentials: false, allowedOrigins: ['https://app.example.com'], allowedMethods: ['GET'], allowedHeaders: [], exposeHeaders: [] }],
  });
  const admin = server.as('admin');

  before(async () => {
    await givenEntry(admin);
  });

  it('answers the preflight with every method and header, credentials, the origin echoed', async () => {
    expectAllowEverythingPreflight(await preflight(server.anonymous(), 'https://app.example.com'), 'https://app.example.com');
  });

  it('lets the actual request read every response header (ETag, Last-Modified, timeToLiveSeconds…)', async () => {
    const r = await admin.get(ENTRY, { Origin: 'https://app.example.com' });
    expect(r.status).to.equal(200);
    expect(r.text).to.equal('v');
    expectAllowEverythingActual(r, 'https://app.example.com');
  });

  it('reads every listed origin, blanks removed', async () => {
    expectAllowEverythingPreflight(await preflight(server.anonymous(), 'http://second.example:8080'), 'http://second.example:8080');
  });

  it('ignores an invalid origin with a warning naming it', () => {
    const warning = logged.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.origin === 'not-an-origin');
    expect(warning).to.include({ level: 40, property: 'grid.server.rest.cors-allow' });
  });
});

describe('CORS: the built-in localhost rules', () => {
  const server = useServer();
  const admin = server.as('admin');

  before(async () => {
    await givenEntry(admin);
  });

  it('allow everything for http|https × 127.0.0.1|localhost|[::1] on the REST port and on 9000', async () => {
    const port = new URL(server.url).port;
    for (const scheme of ['http', 'https']) {
      for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
        for (const p of [port, '9000']) {
          const origin = `${scheme}://${host}:${p}`;
          expectAllowEverythingPreflight(await preflight(server.anonymous(), origin, 'GET'), origin);
          expectAllowEverythingActual(await admin.get(ENTRY, { Origin: origin }), origin);
        }
      }
    }
  });

  it('do not cover other local ports: an actual request from one gets 403 with a reason', async () => {
    const r = await admin.get(ENTRY, { Origin: 'http://localhost:3000' });
    expect(r.status).to.equal(403);
    expect(r.text).to.include("Origin 'http://localhost:3000' is not allowed");
    expect(r.headers.get('access-control-allow-origin')).to.equal(null);
  });
});

describe('CORS: configured cors-rules', () => {
  const rules: CorsRuleConfig[] = [
    {
      name: 'partner', allowCredentials: true, allowedOrigins: ['https://partner.example'], allowedMethods: ['GET', 'PUT'],
      allowedHeaders: ['Key-Content-Type', 'Authorization'], maxAgeSeconds: 600, exposeHeaders: ['ETag', 'timeToLiveSeconds'],
    },
    { name: 'first', allowCredentials: false, allowedOrigins: ['https://both.example'], allowedMethods: ['GET'], allowedHeaders: [], exposeHeaders: [] },
    { name: 'second', allowCredentials: true, allowedOrigins: ['https://both.example'], allowedMethods: ['DELETE'], allowedHeaders: ['X-Never'], exposeHeaders: [] },
    { name: 'public', allowCredentials: false, allowedOrigins: ['*'], allowedMethods: ['GET', 'HEAD'], allowedHeaders: [], exposeHeaders: ['ETag'] },
  ];
  const server = useServer({ corsRules: rules });
  const admin = server.as('admin');

  before(async () => {
    await givenEntry(admin);
  });

  it('a rule with credentials: the preflight carries its methods, headers and max-age', async () => {
    const r = await preflight(server.anonymous(), 'https://partner.example', 'PUT', 'key-content-type, authorization');
    expectPreflightShape(r);
    expect(r.headers.get('access-control-allow-origin')).to.equal('https://partner.example');
    expect(r.headers.get('access-control-allow-credentials')).to.equal('true');
    expect(list(r.headers.get('access-control-allow-methods'))).to.deep.equal(['GET', 'PUT']);
    expect(list(r.headers.get('access-control-allow-headers'))).to.deep.equal(['Authorization', 'Key-Content-Type']);
    expect(r.headers.get('access-control-max-age')).to.equal('600');
  });

  it('a matched rule also answers Chrome\'s Private Network Access preflight (a public site reaching a local grid)', async () => {
    const headers = { Origin: 'https://partner.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Private-Network': 'true' };
    const r = await server.anonymous().request('OPTIONS', ENTRY, { headers });
    expect(r.headers.get('access-control-allow-private-network')).to.equal('true');
  });

  it('a rule with credentials: the actual request gets the echoed origin, credentials and exactly its exposed headers', async () => {
    const r = await admin.get(ENTRY, { Origin: 'https://partner.example' });
    expect(r.status).to.equal(200);
    expect(r.headers.get('access-control-allow-origin')).to.equal('https://partner.example');
    expect(r.headers.get('access-control-allow-credentials')).to.equal('true');
    expect(list(r.headers.get('access-control-expose-headers'))).to.deep.equal(['ETag', 'timeToLiveSeconds']);
    expect(r.headers.get('vary')).to.match(/\bOrigin\b/i);
  });

  it('the first rule whose origins match wins; later rules for the same origin never apply', async () => {
    const r = await preflight(server.anonymous(), 'https://both.example', 'DELETE', 'X-Never');
    expectPreflightShape(r);
    expect(r.headers.get('access-control-allow-origin')).to.equal('https://both.example');
    expect(list(r.headers.get('access-control-allow-methods'))).to.deep.equal(['GET']);
    expect(r.headers.get('access-control-allow-credentials')).to.equal(null);
    expect(r.headers.get('access-control-allow-headers'), 'no allowed-headers: none beyond the safelisted ones').to.equal(null);
    expect(r.headers.get('access-control-max-age')).to.equal(null);
  });

  it('a * rule without credentials matches any origin and answers *, never with credentials', async () => {
    const pre = await preflight(server.anonymous(), 'https://anyone.example', 'GET');
    expectPreflightShape(pre);
    expect(pre.headers.get('access-control-allow-origin')).to.equal('*');
    expect(pre.headers.get('access-control-allow-credentials')).to.equal(null);
    expect(list(pre.headers.get('access-control-allow-methods'))).to.deep.equal(['GET', 'HEAD']);
    const r = await admin.get(ENTRY, { Origin: 'https://anyone.example' });
    expect(r.status).to.equal(200);
    expect(r.headers.get('access-control-allow-origin')).to.equal('*');
    expect(r.headers.get('access-control-allow-credentials')).to.equal(null);
    expect(list(r.headers.get('access-control-expose-headers'))).to.deep.equal(['ETag']);
  });

  it('the built-in localhost rules come before the configured ones', async () => {
    const origin = `http://localhost:${new URL(server.url).port}`;
    expectAllowEverythingPreflight(await preflight(server.anonymous(), origin), origin);
  });
});

describe('CORS: a * rule with credentials', () => {
  const server = useServer({
    corsRules: [{ name: 'all', allowCredentials: true, allowedOrigins: ['*'], allowedMethods: ['GET'], allowedHeaders: [], exposeHeaders: [] }],
  });

  it('echoes the origin instead of * (browsers refuse * with credentials)', async () => {
    const pre = await preflight(server.anonymous(), 'https://site.example', 'GET');
    expect(pre.headers.get('access-control-allow-origin')).to.equal('https://site.example');
    expect(pre.headers.get('access-control-allow-credentials')).to.equal('true');
    const r = await server.as('admin').get('/rest/v2/caches', { Origin: 'https://site.example' });
    expect(r.status).to.equal(200);
    expect(r.headers.get('access-control-allow-origin')).to.equal('https://site.example');
    expect(r.headers.get('access-control-allow-credentials')).to.equal('true');
  });
});

describe('CORS and authentication', () => {
  const origin = 'https://app.example.com';
  const server = useServer({ properties: { 'grid.server.rest.cors-allow': origin } });

  before(async () => {
    await givenEntry(server.as('admin'));
  });

  it('answers the preflight without credentials, before authentication', async () => {
    expectAllowEverythingPreflight(await preflight(server.anonymous(), origin, 'GET', 'authorization'), origin);
  });

  it('still needs credentials for the actual request: 401 a browser app can read, then 200 with them', async () => {
    const denied = await server.anonymous().get(ENTRY, { Origin: origin });
    expect(denied.status).to.equal(401);
    expect(denied.headers.get('www-authenticate')).to.match(/\bBasic realm=/);
    expect(denied.headers.get('access-control-allow-origin')).to.equal(origin);
    expect(list(denied.headers.get('access-control-expose-headers'))).to.include('WWW-Authenticate');
    const ok = await server.as('observer').get(ENTRY, { Origin: origin });
    expect(ok.status).to.equal(200);
    expect(ok.text).to.equal('v');
  });

  it('keeps the permission check: an observer cannot write even from an allowed origin', async () => {
    const r = await server.as('observer').put(ENTRY, 'x', { Origin: origin, 'Content-Type': 'text/plain' });
    expect(r.status).to.equal(403);
    expect(r.headers.get('access-control-allow-origin')).to.equal(origin);
  });
});

describe('CORS: origins no rule allows', () => {
  const server = useServer({ allowedHosts: ['grid.test'] });
  const admin = server.as('admin');

  before(async () => {
    await givenEntry(admin);
  });

  it('refuses an actual request with 403 and a reason, before the handler runs', async () => {
    const r = await admin.request('DELETE', ENTRY, { headers: { Origin: 'https://evil.example' } });
    expect(r.status).to.equal(403);
    expect(r.headers.get('content-type')).to.match(/^text\/plain/);
    expect(r.text).to.equal("Origin 'https://evil.example' is not allowed: no CORS rule matches it (see cors-rules and grid.server.rest.cors-allow)");
    expect(r.headers.get('access-control-allow-origin')).to.equal(null);
    expect((await admin.get(ENTRY)).text).to.equal('v');
  });

  it('answers the preflight 200 without CORS headers, as the original does (the browser then stops)', async () => {
    const r = await preflight(server.anonymous(), 'https://evil.example');
    expectPreflightShape(r);
    for (const h of ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-credentials']) {
      expect(r.headers.get(h), h).to.equal(null);
    }
  });

  it('treats Origin: null (sandboxed frames, file: pages) as foreign', async () => {
    const r = await admin.get(ENTRY, { Origin: 'null' });
    expect(r.status).to.equal(403);
  });

  it('lets a same-origin request through (Origin = scheme://Host), without CORS headers', async () => {
    const port = new URL(server.url).port;
    const basic = 'Basic ' + Buffer.from('admin:admin-pw').toString('base64');
    const r = await requestWithHost(server.url, 'GET', ENTRY, { Host: `grid.test:${port}`, Origin: `http://grid.test:${port}`, Authorization: basic });
    expect(r.status).to.equal(200);
    expect(r.text).to.equal('v');
    expect(r.headers['access-control-allow-origin']).to.equal(undefined);
    const other = await requestWithHost(server.url, 'GET', ENTRY, { Host: `grid.test:${port}`, Origin: 'http://grid.test:1', Authorization: basic });
    expect(other.status, 'another port is another origin').to.equal(403);
  });

  it('leaves requests without Origin untouched', async () => {
    const r = await admin.get(ENTRY);
    expect(r.status).to.equal(200);
    expect(r.headers.get('access-control-allow-origin')).to.equal(null);
    expect(r.headers.get('vary') ?? '', 'no Vary: Origin (compression may add Accept-Encoding)').not.to.match(/origin/i);
    const options = await admin.request('OPTIONS', ENTRY, { headers: { 'Access-Control-Request-Method': 'GET' } });
    expect(options.headers.get('access-control-allow-origin'), 'OPTIONS without Origin is no preflight').to.equal(null);
  });
});

describe('CORS: a matched rule limits actual requests too (simple requests skip the preflight)', () => {
  const rules: CorsRuleConfig[] = [
    { name: 'writer', allowCredentials: false, allowedOrigins: ['https://writer.example'], allowedMethods: ['GET', 'PUT'], allowedHeaders: [], exposeHeaders: [] },
    { name: 'token', allowCredentials: false, allowedOrigins: ['https://token.example'], allowedMethods: ['PUT'], allowedHeaders: ['Authorization', 'Content-Type'], exposeHeaders: [] },
    { name: 'public-read', allowCredentials: false, allowedOrigins: ['*'], allowedMethods: ['GET'], allowedHeaders: [], exposeHeaders: [] },
  ];
  const server = useServer({ corsRules: rules });
  const admin = server.as('admin');

  before(async () => {
    await givenEntry(admin);
  });

  it('refuses a method outside allowed-methods with 403 and a reason; nothing runs', async () => {
    // a cross-site <form method="post" enctype="text/plain"> with the browser's cached credentials
    const created = await admin.post('/rest/v2/caches/csrf', '{"local-cache":{}}', { Origin: 'https://evil.example', 'Content-Type': 'text/plain' });
    expect(created.status).to.equal(403);
    expect(created.text).to.equal("Origin 'https://evil.example' may not send POST requests: CORS rule 'public-read' does not allow it");
    const removed = await admin.request('DELETE', ENTRY, { headers: { Origin: 'https://evil.example' } });
    expect(removed.status).to.equal(403);
    expect((await admin.head('/rest/v2/caches/csrf')).status).to.equal(404);
    expect((await admin.get(ENTRY)).text).to.equal('v');
  });

  it('serves the methods the rule lists, and HEAD with GET', async () => {
    const r = await admin.get(ENTRY, { Origin: 'https://evil.example' });
    expect(r.status).to.equal(200);
    expect(r.headers.get('access-control-allow-origin')).to.equal('*');
    expect((await admin.head(ENTRY, { Origin: 'https://evil.example' })).status).to.equal(200);
  });

  it('refuses a state-changing request carrying credentials the page could not have set (no allow-credentials)', async () => {
    const r = await admin.put(ENTRY, 'x', { Origin: 'https://writer.example', 'Content-Type': 'text/plain' });
    expect(r.status).to.equal(403);
    expect(r.text).to.equal("Origin 'https://writer.example' may not send PUT requests with the browser's credentials: CORS rule 'writer' does not allow it");
    expect((await admin.get(ENTRY)).text).to.equal('v');
    expect((await admin.get(ENTRY, { Origin: 'https://writer.example' })).status, 'GET changes nothing').to.equal(200);
  });

  it('lets a page send its own Authorization header when the rule allows that header', async () => {
    const r = await admin.put(ENTRY, 'y', { Origin: 'https://token.example', 'Content-Type': 'text/plain' });
    expect(r.status).to.equal(204);
    expect((await admin.get(ENTRY)).text).to.equal('y');
  });
});
