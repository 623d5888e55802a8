import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { grid } from '../support/cli';
import { Client } from '../support/client';
import { useServer, withServer } from '../support/server';

/** `grid …args` in a process of its own, as an operator runs it beside the server (which goes on serving meanwhile). */
async function gridOk(args: string[]): Promise<void> {
  const run = await grid(args);
  expect(run.code, run.stderr).to.equal(0);
}

function digestAuthorization(challenge: string, user: string, password: string, method: string, uri: string): string {
  const field = (name: string) => new RegExp(`${name}="?([^",]+)"?`).exec(challenge)![1];
  const algorithm = field('algorithm');
  const h = (s: string) => createHash(algorithm === 'SHA-256' ? 'sha256' : 'md5').update(s).digest('hex');
  const nonce = field('nonce');
  const ha1 = h(`${user}:default:${password}`);
  const ha2 = h(`${method}:${uri}`);
  const response = h(`${ha1}:${nonce}:00000001:abcdef:auth:${ha2}`);
  return `Digest username="${user}", realm="default", nonce="${nonce}", uri="${uri}", algorithm=${algorithm}, ` +
    `response="${response}", qop=auth, nc=00000001, cnonce="abcdef"`;
}

const settle = () => new Promise((r) => setTimeout(r, 250));

describe('authentication', () => {
  const server = useServer();
  const anonymous = server.anonymous();

  before(async () => {
    await server.as('admin').createCache('c');
  });

  it('answers 401 with one challenge per mechanism and a short text saying why without credentials', async () => {
    const r = await anonymous.get('/rest/v2/caches');
    expect(r.status).to.equal(401);
    expect(r.text).to.equal('Authentication required: send the user name and password of a grid user (WWW-Authenticate lists the mechanisms)');
    expect(r.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect((await anonymous.head('/rest/v2/caches')).text).to.equal('');
    const challenges = r.headers.get('www-authenticate')!;
    expect(challenges).to.contain('Basic realm="default"');
    expect(challenges).to.contain('algorithm=MD5');
    expect(challenges).to.contain('algorithm=SHA-256');
  });

  it('serves the health status anonymously', async () => {
    const r = await anonymous.get('/rest/v2/container/health/status');
    expect(r.status).to.equal(200);
    expect(r.text).to.equal('HEALTHY');
    expect((await anonymous.head('/rest/v2/cache-managers/default/health/status')).status).to.equal(200);
  });

  it('answers 404 for unknown paths even without credentials', async () => {
    const r = await anonymous.get('/rest/v2/nothing-here');
    expect(r.status).to.equal(404);
    expect(r.text).to.equal('Resource not found');
  });

  it('answers 401 for a wrong password and for an unknown user, with the same text and the same challenges', async () => {
    const wrong = await new Client(server.url, { user: 'admin', password: 'wrong' }).get('/rest/v2/caches');
    const unknown = await new Client(server.url, { user: 'ghost', password: 'x' }).get('/rest/v2/caches');
    for (const r of [wrong, unknown]) {
      expect([r.status, r.text]).to.deep.equal([401, 'Wrong user name or password']);
      expect(r.headers.get('www-authenticate')).to.contain('Basic realm="default"');
    }
  });

  it('answers 404 saying that REST v3 is not served, with or without credentials, whatever follows', async () => {
    const text = 'REST API v3 is not served by grid: use /rest/v2/… (or the v1 paths /rest/{cacheName}/{cacheKey})';
    for (const client of [anonymous, server.as('admin')]) {
      for (const path of ['/rest/v3/caches', '/rest/v3/caches/c/k', '/rest/v3', '/rest/v12/container']) {
        const r = await client.get(path);
        expect([r.status, r.text], path).to.deep.equal([404, path.startsWith('/rest/v12') ? text.replace('v3', 'v12') : text]);
      }
    }
    // a cache is still reached through the v2 and v1 paths
    expect((await server.as('admin').put('/rest/v2/caches/c/k', 'v')).status).to.equal(204);
    expect((await server.as('admin').get('/rest/c/k')).text).to.equal('v');
  });

  it('never answers 500 to a malformed Authorization header', async () => {
    const cases: Array<[string, number]> = [
      ['Basic', 401],
      ['Basic !!!not-base64!!!', 401],
      ['Basic ' + Buffer.from('no-colon').toString('base64'), 401],
      ['Invalid string', 403],
      ['Bearer abc', 403],
      ['Digest garbage', 400],
      ['Digest username="admin"', 400],
    ];
    for (const [header, status] of cases) {
      const r = await anonymous.get('/rest/v2/caches', { Authorization: header });
      expect(r.status, header).to.equal(status);
    }
    const unknown = await anonymous.get('/rest/v2/caches', { Authorization: 'Bearer abc' });
    expect(unknown.text).to.equal("ISPN080052: The request authentication mechanism 'BEARER' is not supported");
  });

  for (const algorithm of ['MD5', 'SHA-256']) {
    it(`accepts Digest ${algorithm}`, async () => {
      const uri = '/rest/v2/caches/c/k';
      const first = await anonymous.put(uri, 'v');
      const challenge = first.headers.get('www-authenticate')!.split(/,\s*(?=Digest|Basic)/).find((c) => c.includes(`algorithm=${algorithm}`))!;
      const auth = digestAuthorization(challenge, 'admin', 'admin-pw', 'PUT', uri);
      expect((await anonymous.put(uri, 'v', { Authorization: auth })).status).to.equal(204);
      const wrong = digestAuthorization(challenge, 'admin', 'nope', 'PUT', uri);
      expect((await anonymous.put(uri, 'v', { Authorization: wrong })).status).to.equal(401);
    });
  }

  it('accepts Digest for a user name that is not ASCII, sent as UTF-8 bytes (browsers, curl) or as username*', async () => {
    await server.running.services.users.upsert('jürgen', 'pässwörd', ['observer']);
    const uri = '/rest/v2/caches';
    const challengeOf = async () => (await anonymous.get(uri)).headers.get('www-authenticate')!.split(/,\s*(?=Digest|Basic)/).find((c) => c.includes('algorithm=MD5'))!;
    const auth = digestAuthorization(await challengeOf(), 'jürgen', 'pässwörd', 'GET', uri);
    // a header carries bytes: the UTF-8 of the name, which HTTP libraries hand over one byte per character
    expect((await anonymous.get(uri, { Authorization: Buffer.from(auth, 'utf8').toString('latin1') })).status).to.equal(200);
    const extended = digestAuthorization(await challengeOf(), 'jürgen', 'pässwörd', 'GET', uri)
      .replace('username="jürgen"', "username*=UTF-8''j%C3%BCrgen");
    expect((await anonymous.get(uri, { Authorization: extended })).status).to.equal(200);
    const wrong = digestAuthorization(await challengeOf(), 'jürgen', 'nope', 'GET', uri);
    expect((await anonymous.get(uri, { Authorization: Buffer.from(wrong, 'utf8').toString('latin1') })).status).to.equal(401);
  });

  it('re-applying a user with the same password changes nothing; a new password replaces the old one', async () => {
    const users = server.running.services.users;
    await users.upsert('erin', 'first', ['observer']);
    await users.upsert('erin', 'first', ['observer']);
    expect((await new Client(server.url, { user: 'erin', password: 'first' }).get('/rest/v2/caches')).status).to.equal(200);
    await users.upsert('erin', 'second', ['observer']);
    await settle();
    expect((await new Client(server.url, { user: 'erin', password: 'first' }).get('/rest/v2/caches')).status).to.equal(401);
    expect((await new Client(server.url, { user: 'erin', password: 'second' }).get('/rest/v2/caches')).status).to.equal(200);
  });

  it('lets a user created by the CLI while the server runs log in at once', async () => {
    const client = new Client(server.url, { user: 'carol', password: 'secret' });
    expect((await client.get('/rest/v2/caches')).status).to.equal(401);
    await gridOk(['user', 'create', 'carol', '-p', 'secret', '-g', 'observer', '--data', server.dataDir]);
    expect((await client.get('/rest/v2/caches')).status).to.equal(200);
    await gridOk(['user', 'password', 'carol', '-p', 'changed', '--data', server.dataDir]);
    await settle(); // the server looks for changes by other processes every 200 ms
    expect((await client.get('/rest/v2/caches')).status).to.equal(401);
    await gridOk(['user', 'remove', 'carol', '--data', server.dataDir]);
    await settle();
    expect((await new Client(server.url, { user: 'carol', password: 'changed' }).get('/rest/v2/caches')).status).to.equal(401);
  });
});

/** Requests on one keep-alive connection; `reused` tells whether each went on the first one. */
function oneConnection(url: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, path: string, headers: Record<string, string>) => new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
    const req = httpRequest(new URL(path, url), { method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
  return { send, close: () => agent.destroy() };
}

const basicOf = (user: string, password: string) => ({ Authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });

describe('remembered Basic logins on one connection', () => {
  const server = useServer();

  before(async () => {
    await server.as('admin').createCache('c');
  });

  it('are dropped when the password changes through the server, by the CLI, or when the user is removed', async () => {
    const users = server.running.services.users;
    await users.upsert('fred', 'first', ['observer']);
    const c = oneConnection(server.url);
    try {
      expect((await c.send('GET', '/rest/v2/caches', basicOf('fred', 'first'))).status).to.equal(200);
      expect(await c.send('GET', '/rest/v2/caches', basicOf('fred', 'first'))).to.deep.equal({ status: 200, reused: true });
      await users.upsert('fred', 'second', ['observer']);
      expect(await c.send('GET', '/rest/v2/caches', basicOf('fred', 'first'))).to.deep.equal({ status: 401, reused: true });
      expect(await c.send('GET', '/rest/v2/caches', basicOf('fred', 'second'))).to.deep.equal({ status: 200, reused: true });
      await gridOk(['user', 'password', 'fred', '-p', 'third', '--data', server.dataDir]);
      await settle(); // the server looks for changes by other processes every 200 ms
      expect(await c.send('GET', '/rest/v2/caches', basicOf('fred', 'second'))).to.deep.equal({ status: 401, reused: true });
      expect(await c.send('GET', '/rest/v2/caches', basicOf('fred', 'third'))).to.deep.equal({ status: 200, reused: true });
      await gridOk(['user', 'remove', 'fred', '--data', server.dataDir]);
      await settle();
      expect(await c.send('GET', '/rest/v2/caches', basicOf('fred', 'third'))).to.deep.equal({ status: 401, reused: true });
    } finally {
      c.close();
    }
  });

  it('follow a change of the roles mapped to the user at the next request', async () => {
    await server.running.services.users.upsert('gina', 'pw', ['observer']);
    const c = oneConnection(server.url);
    try {
      expect((await c.send('PUT', '/rest/v2/caches/c/k', basicOf('gina', 'pw'))).status).to.equal(403);
      expect((await server.as('admin').put('/rest/v2/security/roles/gina?action=grant&role=deployer')).status).to.equal(204);
      expect(await c.send('PUT', '/rest/v2/caches/c/k', basicOf('gina', 'pw'))).to.deep.equal({ status: 204, reused: true });
      expect((await server.as('admin').put('/rest/v2/security/roles/gina?action=deny&role=deployer')).status).to.equal(204);
      expect(await c.send('PUT', '/rest/v2/caches/c/k', basicOf('gina', 'pw'))).to.deep.equal({ status: 403, reused: true });
    } finally {
      c.close();
    }
  });

  it('are kept per header: another user on the same connection is verified as that user', async () => {
    await server.running.services.users.upsert('hank', 'pw', ['observer']);
    const c = oneConnection(server.url);
    try {
      expect((await c.send('GET', '/rest/v2/caches', basicOf('admin', 'admin-pw'))).status).to.equal(200);
      expect(await c.send('GET', '/rest/v2/caches', basicOf('hank', 'wrong'))).to.deep.equal({ status: 401, reused: true });
      expect(await c.send('PUT', '/rest/v2/caches/c/k', basicOf('hank', 'pw'))).to.deep.equal({ status: 403, reused: true });
      expect(await c.send('PUT', '/rest/v2/caches/c/k', basicOf('admin', 'admin-pw'))).to.deep.equal({ status: 204, reused: true });
    } finally {
      c.close();
    }
  });
});

describe('routing', () => {
  const server = useServer();
  const admin = server.as('admin');

  it('ignores empty segments and trailing slashes', async () => {
    expect((await admin.get('/rest/v2/caches/')).status).to.equal(200);
    expect((await admin.get('//rest//v2//caches')).status).to.equal(200);
  });

  it('answers 405 for a known path and an unsupported method, 403 for an unknown verb', async () => {
    const r = await admin.request('PATCH', '/rest/v2/caches');
    expect(r.status).to.equal(403);
    const m = await admin.request('DELETE', '/rest/v2/caches');
    expect(m.status).to.equal(405);
    expect(m.text).to.equal('Not allowed');
    expect((await admin.request('NOT-EXIST', '/rest/v2/caches')).status).to.equal(403);
  });

  it('answers 400 for an empty or unknown action', async () => {
    const empty = await admin.get('/rest/v2/caches?action=');
    expect(empty.status).to.equal(400);
    expect(empty.text).to.equal('Invalid action');
    const unknown = await admin.get('/rest/v2/caches?action=dance');
    expect(unknown.status).to.equal(400);
    expect(unknown.text).to.equal("Invalid 'action' parameter supplied");
  });

  it('decodes + and %2B inside cache names; a decoded / stays part of the name', async () => {
    const r = await admin.post('/rest/v2/caches/a%2Bb+c', '{"local-cache":{}}', { 'Content-Type': 'application/json' });
    expect(r.status).to.equal(200);
    expect((await admin.get('/rest/v2/caches')).json()).to.include('a+b c');
    expect((await admin.head('/rest/v2/caches/a%2Bb%20c')).status).to.equal(204);
    const slash = await admin.post('/rest/v2/caches/a%2Fb', '{"local-cache":{}}', { 'Content-Type': 'application/json' });
    expect(slash.status).to.equal(200);
    expect((await admin.get('/rest/v2/caches')).json()).to.include('a/b');
  });

  it('adds the browser security headers for a Mozilla user agent, errors included', async () => {
    for (const path of ['/rest/v2/caches', '/rest/v2/caches/missing']) {
      const r = await admin.get(path, { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64)' });
      expect(r.headers.get('x-frame-options'), path).to.equal('sameorigin');
      expect(r.headers.get('x-xss-protection')).to.equal('1; mode=block');
      expect(r.headers.get('x-content-type-options')).to.equal('nosniff');
      // the original's policy: scripts only from the server itself, never inline or eval'd
      expect(r.headers.get('content-security-policy')).to.equal(
        "default-src 'self' data:; style-src 'self' 'unsafe-inline'; base-uri 'self'; form-action 'self'; frame-src 'self'; frame-ancestors 'self'; object-src 'none'; sandbox");
    }
    expect((await admin.get('/rest/v2/caches', { 'User-Agent': 'curl/8' })).headers.get('x-frame-options')).to.equal(null);
  });

  it('never shows a stack trace for a malformed path', async () => {
    const r = await admin.get('/rest/v2/caches/%E0%A4%A');
    expect(r.status).to.equal(400);
    expect(r.text).to.not.contain('at ');
  });
});

describe('--no-auth', () => {
  it('serves everything without credentials', async () => {
    await withServer({ authEnabled: false }, async (server) => {
      const c = server.anonymous();
      expect((await c.post('/rest/v2/caches/open')).status).to.equal(200);
      expect((await c.put('/rest/v2/caches/open/k', 'v')).status).to.equal(204);
    });
  });
});
