import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { allRoutes } from '../../src/http/app';
import { useServer } from '../support/server';

/**
 * One regression test per CVE of the original's REST server, each the same class of attack
 * against grid (public descriptions; the original's fixes are not carried over, only the facts).
 * CVE-2024-6875 lives with the compare endpoint, CVE-2023-44487 with HTTP/2.
 */

const SECURED = { 'local-cache': { security: { authorization: { enabled: true, roles: ['admin', 'deployer'] } } } };
const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const utf = (s: string) => Buffer.concat([Buffer.from([0, s.length]), Buffer.from(s)]).toString('hex');

/** A Java serialization stream whose first object is of class `name` (a deserialization gadget's opening). */
function serializedObjectOf(name: string): Buffer {
  return hex(`aced0005 73 72 ${utf(name)} 0123456789abcdef 02 0000 78 70`);
}

function digest(challenge: string, o: { user: string; password: string; method: string; uri: string; nonce?: string; realm?: string }): string {
  const nonce = o.nonce ?? /nonce="([^"]+)"/.exec(challenge)![1];
  const h = (s: string) => createHash('md5').update(s).digest('hex');
  const response = h(`${h(`${o.user}:${o.realm ?? 'default'}:${o.password}`)}:${nonce}:00000001:abc:auth:${h(`${o.method}:${o.uri}`)}`);
  return `Digest username="${o.user}", realm="${o.realm ?? 'default'}", nonce="${nonce}", uri="${o.uri}", algorithm=MD5, response="${response}", qop=auth, nc=00000001, cnonce="abc"`;
}

describe('CVE regression tests', () => {
  const server = useServer();
  const admin = server.as('admin');
  const anonymous = server.anonymous();

  before(async () => {
    await admin.createCache('data');
    await admin.createCache('secret', SECURED);
    await admin.createCache('objects', { 'local-cache': { encoding: { 'media-type': 'application/x-java-object' } } });
    await admin.createCache('raw');
    expect((await admin.put('/rest/v2/caches/data/k', 'v')).status).to.equal(204);
    expect((await admin.put('/rest/v2/caches/secret/k', 'classified')).status).to.equal(204);
  });

  it('CVE-2017-2638: no REST path, legacy v1 included, answers without authentication once security is on', async () => {
    // the original's REST endpoint once ignored the configured security: every path must challenge
    const paths = [
      ['GET', '/rest/v2/caches/data/k'], ['HEAD', '/rest/v2/caches/data/k'], ['PUT', '/rest/v2/caches/data/k'], ['DELETE', '/rest/v2/caches/data/k'],
      ['GET', '/rest/data/k'], ['PUT', '/rest/data/k'], ['GET', '/rest/data'], ['DELETE', '/rest/data'],
      ['GET', '/rest/v2/caches/data?action=keys'], ['GET', '//rest//v2//caches/data/'], ['GET', '/rest/v2/caches/d%61ta/k'],
      ['POST', '/rest/v2/caches/evil'], ['DELETE', '/rest/v2/caches/data'], ['GET', '/rest/v2/server/config'],
      ['POST', '/rest/v2/server?action=stop'], ['POST', '/rest/v2/container?action=shutdown'], ['GET', '/rest/v2/security/user/acl'],
    ];
    for (const [method, path] of paths) {
      const r = await anonymous.request(method, path);
      expect(r.status, `${method} ${path}`).to.equal(401);
      expect(r.headers.get('www-authenticate'), path).to.contain('Basic realm="default"');
    }
    for (const header of ['Basic ' + Buffer.from('admin:').toString('base64'), 'Basic ' + Buffer.from(':').toString('base64'), 'Basic ', 'Bearer x', 'Negotiate x']) {
      const r = await anonymous.get('/rest/v2/caches/data/k', { Authorization: header });
      expect(r.status, header).to.be.oneOf([401, 403]);
      expect(r.text).to.not.equal('v');
    }
    // every non-anonymous row of the table challenges (the matrix checks each row; this is the count)
    const open = allRoutes().filter((r) => r.anonymous).map((r) => `${r.method} ${r.path}`);
    // the web console's page, the redirect to it, the API description and its viewer carry no data, anonymous as in the original
    expect(open.every((r) => /\/health\b|\/metrics(\/\*sub)?$|\/login$|^GET \/$|^GET \/console(\/\*file)?$|^GET \/rest\/v2\/openapi$|^GET \/swagger-ui(\/:file)?$/.test(r)), open.join(', ')).to.equal(true);
    expect((await admin.get('/rest/v2/caches/data/k')).text).to.equal('v');
  });

  it('CVE-2018-1131: a value is never deserialized into a class outside the allow list, whatever its media type', async () => {
    const attempts: Array<[Buffer | string, string]> = [
      [serializedObjectOf('org.apache.commons.collections.functors.InvokerTransformer'), 'application/x-java-serialized-object'],
      [serializedObjectOf('java.util.PriorityQueue'), 'application/x-java-serialized-object'],
      [serializedObjectOf('java.lang.ProcessBuilder'), 'application/x-java-serialized-object'],
      [hex('03 01 00'), 'application/x-jboss-marshalling'],
      ['{"_type":"java.lang.ProcessBuilder","command":["touch","/tmp/pwned"]}', 'application/json'],
      ['<java.lang.ProcessBuilder><command><string>touch</string></command></java.lang.ProcessBuilder>', 'application/xml'],
      ['calc', 'application/x-java-object; type=java.lang.Runtime'],
      ['x', 'application/x-java-object; type=javax.script.ScriptEngineManager'],
    ];
    for (const [i, [body, type]] of attempts.entries()) {
      const r = await admin.put(`/rest/v2/caches/objects/gadget-${i}`, body, { 'Content-Type': type });
      expect(r.status, `${type}: ${r.text}`).to.be.within(400, 499);
      expect(r.text).to.not.match(/\bat \w/); // no stack trace
      expect((await admin.get(`/rest/v2/caches/objects/gadget-${i}`)).status, type).to.equal(404);
    }
    const key = await admin.put('/rest/v2/caches/objects/k', 'v', { 'Key-Content-Type': 'application/x-java-object; type=java.lang.ProcessBuilder' });
    expect(key.status).to.be.within(400, 499);
    // bytes kept opaque in an unconfigured cache are never turned into an object on the way out either
    const gadget = serializedObjectOf('java.util.PriorityQueue');
    expect((await admin.put('/rest/v2/caches/raw/g', gadget, { 'Content-Type': 'application/octet-stream' })).status).to.equal(204);
    const out = await admin.get('/rest/v2/caches/raw/g', { Accept: 'application/x-java-object' });
    expect(out.status).to.not.equal(500);
    if (out.status === 200) expect(out.bytes.equals(gadget)).to.equal(true);
    expect((await admin.get('/rest/v2/caches/raw/g')).bytes.equals(gadget)).to.equal(true);
  });

  it('CVE-2021-31917: no Digest header gets past authentication without the password', async () => {
    const uri = '/rest/v2/caches/data/k';
    const challenge = (await anonymous.get(uri)).headers.get('www-authenticate')!;
    const nonce = /nonce="([^"]+)"/.exec(challenge)![1];
    const forged = digest(challenge, { user: 'admin', password: 'x', method: 'GET', uri });
    const bypasses: Array<[string, string]> = [
      ['wrong password', forged],
      ['unknown user', digest(challenge, { user: 'ghost', password: '', method: 'GET', uri })],
      ['empty response', forged.replace(/response="[^"]+"/, 'response=""')],
      ['no response', forged.replace(/response="[^"]+", /, '')],
      ['no username', forged.replace(/username="[^"]+", /, '')],
      ['forged nonce', digest(challenge, { user: 'admin', password: 'admin-pw', method: 'GET', uri, nonce: `${Date.now().toString(36)}.AAAA` })],
      ['nonce without a MAC', digest(challenge, { user: 'admin', password: 'admin-pw', method: 'GET', uri, nonce: 'abc' })],
      ['other realm', digest(challenge, { user: 'admin', password: 'admin-pw', method: 'GET', uri, realm: 'elsewhere' })],
      ['response for the anonymous health probe', digest(challenge, { user: 'admin', password: 'admin-pw', method: 'GET', uri: '/rest/v2/container/health/status' })],
      ['response for GET replayed on DELETE', digest(challenge, { user: 'admin', password: 'admin-pw', method: 'GET', uri })],
      ['unknown algorithm', digest(challenge, { user: 'admin', password: 'admin-pw', method: 'GET', uri }).replace('algorithm=MD5', 'algorithm=NONE')],
      ['Digest without fields', 'Digest'],
    ];
    for (const [what, header] of bypasses) {
      const method = what.includes('DELETE') ? 'DELETE' : 'GET';
      const r = await anonymous.request(method, uri, { headers: { Authorization: header } });
      expect(r.status, what).to.be.oneOf([400, 401]);
      expect(r.text, what).to.not.equal('v');
    }
    expect((await admin.get(uri)).text).to.equal('v');
    // the genuine header still works, and reading it tells nothing about the nonce secret
    const genuine = digest(challenge, { user: 'admin', password: 'admin-pw', method: 'GET', uri, nonce });
    expect((await anonymous.get(uri, { Authorization: genuine })).text).to.equal('v');
  });

  it('CVE-2023-3628: bulk reads and writes need BULK_READ / BULK_WRITE on the cache, secured caches by their own roles', async () => {
    const monitor = server.as('monitor');
    const application = server.as('application');
    const bulkReads = (c: string) => [`/rest/v2/caches/${c}?action=keys`, `/rest/v2/caches/${c}?action=entries`, `/rest/v2/caches/${c}?action=size`, `/rest/${c}`];
    for (const path of bulkReads('data')) {
      const r = await monitor.get(path);
      expect(r.status, path).to.equal(403);
      expect(r.text).to.not.contain('"k"');
      expect((await server.as('observer').get(path)).status, path).to.equal(200);
    }
    for (const path of bulkReads('secret')) {
      const r = await application.get(path);
      expect(r.status, path).to.equal(403);
      expect(r.text).to.not.contain('classified');
    }
    expect((await server.as('observer').post('/rest/v2/caches/data?action=clear')).status).to.equal(403);
    expect((await application.post('/rest/v2/caches/secret?action=clear')).status).to.equal(403);
    expect((await application.delete('/rest/secret')).status).to.equal(403);
    expect((await admin.get('/rest/v2/caches/secret/k')).text).to.equal('classified');
    // nor through a task: the script's cache is the caller's view of it
    expect((await admin.put('/rest/v2/tasks/dump', '// mode=local,language=javascript\ncacheManager.getCache("secret").get("k")')).status).to.equal(200);
    const dump = await application.post('/rest/v2/tasks/dump?action=exec');
    expect(dump.text).to.not.contain('classified');
  });

  it('CVE-2023-3629: cache configurations and names reach only those allowed to see them', async () => {
    const observer = server.as('observer');
    // configuration: ADMIN only (on the cache itself when secured)
    expect((await observer.get('/rest/v2/caches/data?action=config')).status).to.equal(403);
    const details = (await observer.get('/rest/v2/caches/data')).json<Record<string, unknown>>();
    expect(details).to.not.have.property('configuration');
    expect((await observer.get('/rest/v2/container/config')).status).to.equal(403);
    expect((await observer.get('/rest/v2/container/config?action=listen')).status).to.equal(403);
    const configs = (await observer.get('/rest/v2/container/cache-configs')).json<Array<{ name: string }>>().map((c) => c.name);
    expect(configs).to.include('data').and.not.include('secret');
    // names and health of a secured cache: not to a caller without any permission on it
    expect((await observer.get('/rest/v2/caches')).json()).to.not.include('secret');
    expect((await observer.get('/rest/v2/caches?action=detailed')).text).to.not.contain('secret');
    expect((await observer.head('/rest/v2/caches/secret')).status).to.equal(404);
    expect((await observer.get('/rest/v2/container')).text).to.not.contain('secret');
    expect((await observer.get('/rest/v2/container/health')).text).to.not.contain('secret');
    expect((await observer.get('/rest/v2/security/user/acl')).text).to.not.contain('secret');
    expect((await anonymous.get('/metrics')).text).to.not.contain('secret');
    expect((await observer.get('/rest/v2/caches/secret')).status).to.equal(403);
    // the deployer is one of its roles: it sees the cache but not its configuration
    expect((await server.as('deployer').get('/rest/v2/caches')).json()).to.include('secret');
    expect((await server.as('deployer').get('/rest/v2/caches/secret?action=config')).status).to.equal(403);
    expect((await admin.get('/rest/v2/caches/secret?action=config')).status).to.equal(200);
  });
});
