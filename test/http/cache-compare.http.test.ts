import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import type { Client, Reply } from '../support/client';
import { multipart, type PartSpec } from '../support/multipart';
import { basicAuth, rawRequest } from '../support/raw-http';
import { useServer, withServer } from '../support/server';

const COMPARE = '/rest/v2/caches?action=compare';

const LOCAL_XML = '<local-cache name="a"><expiration lifespan="60000"/></local-cache>';
const LOCAL_JSON = JSON.stringify({ b: { 'local-cache': { expiration: { lifespan: '60000' } } } });
const LOCAL_YAML = 'c:\n  localCache:\n    expiration:\n      lifespan: "60000"\n';
const json = (body: unknown) => JSON.stringify(body);

describe('POST /rest/v2/caches?action=compare', () => {
  const server = useServer();
  const admin = server.as('admin');

  const compare = (client: Client, parts: PartSpec[], query = '') => {
    const { body, contentType } = multipart(parts);
    return client.post(COMPARE + query, body, { 'Content-Type': contentType });
  };
  const two = (a: string, b: string): PartSpec[] => [{ name: 'one', content: a }, { name: 'two', content: b }];

  it('answers 204 for the same configuration written as XML, JSON and YAML under different names', async () => {
    expect((await compare(admin, two(LOCAL_XML, LOCAL_JSON))).status).to.equal(204);
    expect((await compare(admin, two(LOCAL_JSON, LOCAL_YAML))).status).to.equal(204);
  });

  it('takes file parts as well as fields, and a part Content-Type that names the format', async () => {
    const r = await compare(admin, [
      { name: 'first', content: LOCAL_XML, filename: 'a.xml', contentType: 'application/octet-stream' },
      { name: 'second', content: LOCAL_JSON, contentType: 'application/json' },
    ]);
    expect(r.status).to.equal(204);
  });

  it('answers 409 with a short reason when they differ (the original: no body), even only in a mutable attribute', async () => {
    const other = json({ 'local-cache': { expiration: { lifespan: '30000' } } });
    const r = await compare(admin, two(LOCAL_JSON, other));
    expect(r.status).to.equal(409);
    expect(r.text).to.equal('Configurations differ');
  });

  it('with ignoreMutable=true answers 204 when only mutable attributes differ', async () => {
    const other = json({ 'local-cache': { expiration: { lifespan: '30000', 'max-idle': '1000' }, memory: { 'max-count': '100' } } });
    expect((await compare(admin, two(LOCAL_JSON, other), '&ignoreMutable=true')).status).to.equal(204);
  });

  it('with ignoreMutable=true answers 409 listing the incompatible attributes', async () => {
    const text = json({ 'local-cache': { encoding: { 'media-type': 'text/plain' } } });
    const proto = json({ 'local-cache': { encoding: { 'media-type': 'application/x-protostream' } } });
    const r = await compare(admin, two(text, proto), '&ignoreMutable=true');
    expect(r.status).to.equal(409);
    const lines = r.text.split('\n');
    expect(lines[0]).to.equal("ISPN000963: Invalid configuration in 'local-cache'");
    expect(lines.slice(1).every((l) => l.startsWith('    ISPN000961: Incompatible attribute '))).to.equal(true);
    expect(r.text).to.contain("existing value='text/plain', new value='application/x-protostream'");
  });

  it('reports a different cache mode as incompatible', async () => {
    const r = await compare(admin, two(json({ 'local-cache': {} }), json({ 'distributed-cache': {} })), '&ignoreMutable=true');
    expect(r.status).to.equal(409);
    expect(r.text).to.contain("'local-cache.clustering.cache-mode'");
    expect((await compare(admin, two(json({ 'local-cache': {} }), json({ 'distributed-cache': {} })))).status).to.equal(409);
  });

  it('answers 400 ISPN012032 for a body that is not multipart/form-data', async () => {
    const r = await admin.post(COMPARE, LOCAL_JSON, { 'Content-Type': 'application/json' });
    expect(r.status).to.equal(400);
    expect(r.text).to.equal("ISPN012032: Wrong media type 'multipart/form-data'. Expecting 'application/json'");
  });

  it('answers 400 ISPN012033 unless there are exactly two parts with one cache each', async () => {
    const expect012033 = (r: Reply, why: string) => {
      expect(r.status, why).to.equal(400);
      expect(r.text, why).to.equal('ISPN012033: Wrong content: expecting multipart/form-data with two parts');
    };
    expect012033(await compare(admin, [{ name: 'one', content: LOCAL_JSON }]), 'one part');
    expect012033(await compare(admin, [...two(LOCAL_JSON, LOCAL_JSON), { name: 'three', content: LOCAL_JSON }]), 'three parts');
    expect012033(await compare(admin, two(LOCAL_JSON, json({ x: { 'local-cache': {} }, y: { 'local-cache': {} } }))), 'two caches in a part');
    const twoInXml = '<infinispan><cache-container><local-cache name="x"/><local-cache name="y"/></cache-container></infinispan>';
    expect012033(await compare(admin, two(LOCAL_JSON, twoInXml)), 'two caches in an XML document');
    expect012033(await compare(admin, two(LOCAL_JSON, '')), 'an empty part');
    expect012033(await admin.post(COMPARE, '--x\r\n', { 'Content-Type': 'multipart/form-data' }), 'no boundary');
    expect012033(await admin.post(COMPARE, 'not multipart at all', { 'Content-Type': 'multipart/form-data; boundary=abc' }), 'no parts');
    expect012033(await admin.post(COMPARE, Buffer.from(LOCAL_JSON)), 'no Content-Type');
  });

  it('answers 400 ISPN012033 to three file parts (curl -F a=@x -F b=@y -F c=@z) and keeps serving', async () => {
    const file = (name: string) => ({ name, content: LOCAL_JSON, filename: `${name}.json`, contentType: 'application/json' });
    const r = await compare(admin, [file('one'), file('two'), file('three')]);
    expect(r.status).to.equal(400);
    expect(r.text).to.equal('ISPN012033: Wrong content: expecting multipart/form-data with two parts');
    // the third part, cut short when reading stopped, used to crash the process with an unheard stream error
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await admin.get('/rest/v2/caches')).status).to.equal(200);
    expect((await compare(admin, [file('one'), file('two')])).status).to.equal(204);
  });

  it('answers 400 with the parser message for a part that is not a valid configuration', async () => {
    const r = await compare(admin, two(LOCAL_JSON, json({ 'local-cache': { expiration: { lifespan: 'soon' } } })));
    expect(r.status).to.equal(400);
    expect(r.text).to.not.equal('');
    expect(r.text).to.not.contain('ISPN012033');
  });

  it('reads a gzip-compressed multipart body', async () => {
    const { body, contentType } = multipart(two(LOCAL_XML, LOCAL_JSON));
    const r = await rawRequest(server.url, COMPARE, {
      method: 'POST', body: gzipSync(body), headers: { ...basicAuth('admin'), 'Content-Type': contentType, 'Content-Encoding': 'gzip' },
    });
    expect(r.status).to.equal(204);
  });

  it('needs only an authenticated user, as the original (no permission): 401 anonymous, 204 for monitor', async () => {
    const { body, contentType } = multipart(two(LOCAL_XML, LOCAL_JSON));
    expect((await server.anonymous().post(COMPARE, body, { 'Content-Type': contentType })).status).to.equal(401);
    expect((await compare(server.as('monitor'), two(LOCAL_XML, LOCAL_JSON))).status).to.equal(204);
  });

  describe('bounded memory (CVE-2024-6875: the original held whatever this endpoint was sent)', () => {
    it('refuses a part larger than 1 MiB with 413 and closes the connection', async () => {
      const huge = `<local-cache name="a"><!-- ${'x'.repeat(1100 * 1024)} --></local-cache>`;
      const { body, contentType } = multipart(two(LOCAL_XML, huge));
      const r = await rawRequest(server.url, COMPARE, { method: 'POST', body, headers: { ...basicAuth('admin'), 'Content-Type': contentType } });
      expect(r.status).to.equal(413);
      expect(r.headers.connection).to.equal('close');
    });

    it('stops at the third of thousands of parts', async () => {
      const parts = Array.from({ length: 5000 }, (_, i) => ({ name: `p${i}`, content: LOCAL_JSON }));
      const r = await compare(admin, parts);
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('ISPN012033');
    });

    it('refuses a body over max-content-length with 413, also when it only inflates past it', async () => {
      await withServer({ maxContentLength: 50_000 }, async (small) => {
        const padded = `<local-cache name="a"><!-- ${' '.repeat(60_000)} --></local-cache>`;
        const { body, contentType } = multipart(two(LOCAL_XML, padded));
        const headers = { ...basicAuth('admin'), 'Content-Type': contentType };
        expect((await rawRequest(small.url, COMPARE, { method: 'POST', body, headers })).status).to.equal(413);
        const zipped = gzipSync(body);
        expect(zipped.length).to.be.below(50_000);
        expect((await rawRequest(small.url, COMPARE, { method: 'POST', body: zipped, headers: { ...headers, 'Content-Encoding': 'gzip' } })).status).to.equal(413);
      });
    });
  });
});
