import { expect } from 'chai';
import { useServer } from '../support/server';

const entry = (cache: string, key: string) => `/rest/v2/caches/${cache}/${key}`;
const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');
const UTF8_TEXT = 'text/plain; charset=UTF-8';

describe('text/plain charsets (docs/reference/media-types.md#charsets: DefaultTranscoder convertTextToText)', () => {
  const server = useServer();
  const admin = server.as('admin');
  let n = 0;
  const cacheWith = async (mediaType?: string): Promise<string> => {
    const name = `tc${++n}`;
    await admin.createCache(name, { 'local-cache': mediaType ? { encoding: { 'media-type': mediaType } } : {} });
    return name;
  };

  describe('PUT /rest/v2/caches/{cacheName}/{cacheKey} with a charset', () => {
    it('stores ISO-8859-1 text in a UTF-8 cache as UTF-8', async () => {
      const c = await cacheWith(UTF8_TEXT);
      const r = await admin.put(entry(c, 'l2'), latin1('caf\xe9'), { 'Content-Type': 'text/plain; charset=ISO-8859-1' });
      expect(r.status).to.equal(204);
      expect((await admin.get(entry(c, 'l2'))).bytes).to.deep.equal(Buffer.from('café', 'utf8'));
      expect((await admin.get(`/rest/v2/caches/${c}?action=entries`)).json()).to.deep.equal([{ key: 'l2', value: 'café' }]);
    });

    it('reads UTF-16 with and without a byte order mark', async () => {
      const c = await cacheWith(UTF8_TEXT);
      await admin.put(entry(c, 'le'), Buffer.from('ü€😀', 'utf16le'), { 'Content-Type': 'text/plain; charset=UTF-16LE' });
      await admin.put(entry(c, 'bom'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ü€', 'utf16le')]), { 'Content-Type': 'text/plain; charset=UTF-16' });
      expect((await admin.get(entry(c, 'le'))).text).to.equal('ü€😀');
      expect((await admin.get(entry(c, 'bom'))).text).to.equal('ü€');
    });

    it('decodes the charset for a Java object cache too', async () => {
      const c = await cacheWith('application/x-java-object');
      await admin.put(entry(c, 'k'), latin1('caf\xe9'), { 'Content-Type': 'text/plain; charset=latin1' });
      expect((await admin.get(entry(c, 'k'), { Accept: 'text/plain' })).text).to.equal('café');
    });

    it('keeps the bytes as sent when the charset is the cache\'s own (no conversion, even of malformed UTF-8)', async () => {
      const c = await cacheWith(UTF8_TEXT);
      await admin.put(entry(c, 'raw'), Buffer.from([0x61, 0xff]), { 'Content-Type': 'text/plain; charset=utf-8' });
      expect((await admin.get(entry(c, 'raw'))).bytes).to.deep.equal(Buffer.from([0x61, 0xff]));
    });

    it('keeps the bytes in an unconfigured cache (application/unknown is opaque)', async () => {
      const c = await cacheWith();
      await admin.put(entry(c, 'k'), latin1('caf\xe9'), { 'Content-Type': 'text/plain; charset=ISO-8859-1' });
      expect((await admin.get(entry(c, 'k'))).bytes).to.deep.equal(latin1('caf\xe9'));
    });

    it('answers 400 with the charset name for a charset grid cannot convert, and stores nothing', async () => {
      const c = await cacheWith(UTF8_TEXT);
      for (const charset of ['windows-1252', 'Shift_JIS', 'x-no-such-charset']) {
        const r = await admin.put(entry(c, 'k'), 'abc', { 'Content-Type': `text/plain; charset=${charset}` });
        expect(r.status, charset).to.equal(400);
        expect(r.text).to.equal(charset);
      }
      expect((await admin.get(entry(c, 'k'))).status).to.equal(404);
    });

    it('answers 400 for an illegal charset name and for one in Key-Content-Type', async () => {
      const c = await cacheWith(UTF8_TEXT);
      const bad = await admin.put(entry(c, 'k'), 'abc', { 'Content-Type': 'text/plain; charset=@@' });
      expect(bad.status).to.equal(400);
      expect(bad.text).to.equal('@@');
      const key = await admin.put(entry(c, 'k'), 'abc', { 'Content-Type': UTF8_TEXT, 'Key-Content-Type': 'text/plain; charset=EBCDIC-XYZ' });
      expect(key.status).to.equal(400);
      expect(key.text).to.equal('EBCDIC-XYZ');
    });
  });

  describe('GET /rest/v2/caches/{cacheName}/{cacheKey} with Accept naming a charset', () => {
    it('writes the value in that charset under the Content-Type asked for', async () => {
      const c = await cacheWith(UTF8_TEXT);
      await admin.put(entry(c, 'k'), 'café', { 'Content-Type': UTF8_TEXT });
      const r = await admin.get(entry(c, 'k'), { Accept: 'text/plain; charset=ISO-8859-1' });
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('text/plain;charset=ISO-8859-1');
      expect(r.bytes).to.deep.equal(latin1('caf\xe9'));
      const be = await admin.get(entry(c, 'k'), { Accept: 'text/plain; charset=UTF-16' });
      expect(be.bytes).to.deep.equal(Buffer.from([0xfe, 0xff, 0, 0x63, 0, 0x61, 0, 0x66, 0, 0xe9]));
    });

    it('replaces characters the charset cannot hold with ? (one per character, as String.getBytes)', async () => {
      const c = await cacheWith(UTF8_TEXT);
      await admin.put(entry(c, 'k'), 'é€😀!', { 'Content-Type': UTF8_TEXT });
      expect((await admin.get(entry(c, 'k'), { Accept: 'text/plain; charset=US-ASCII' })).text).to.equal('???!');
      expect((await admin.get(entry(c, 'k'), { Accept: 'text/plain; charset=ISO-8859-1' })).bytes).to.deep.equal(latin1('\xe9??!'));
    });

    it('writes a Java object cache\'s text in the charset asked for', async () => {
      const c = await cacheWith('application/x-java-object');
      await admin.put(entry(c, 'k'), 'café', { 'Content-Type': 'text/plain' });
      expect((await admin.get(entry(c, 'k'), { Accept: 'text/plain; charset=ISO-8859-1' })).bytes).to.deep.equal(latin1('caf\xe9'));
    });

    it('answers 400 with the charset name for a charset grid cannot write', async () => {
      const c = await cacheWith(UTF8_TEXT);
      await admin.put(entry(c, 'k'), 'café', { 'Content-Type': UTF8_TEXT });
      const r = await admin.get(entry(c, 'k'), { Accept: 'text/plain; charset=GB18030' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('GB18030');
    });
  });

  describe('GET /rest/{cacheName} (legacy v1 key listing, docs/reference/data-plane.md#legacy-v1)', () => {
    it('writes the keys in the charset Accept names and echoes it', async () => {
      const c = await cacheWith(UTF8_TEXT);
      await admin.put(entry(c, encodeURIComponent('café')), 'v', { 'Content-Type': UTF8_TEXT });
      const r = await admin.get(`/rest/${c}`, { Accept: 'text/plain; charset=ISO-8859-1' });
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('text/plain; charset=ISO-8859-1');
      expect(r.bytes).to.deep.equal(latin1('caf\xe9'));
      const plain = await admin.get(`/rest/${c}`, { Accept: 'text/plain' });
      expect(plain.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
      expect(plain.text).to.equal('café');
    });

    it('answers 400 with the charset name for a charset grid cannot write', async () => {
      const c = await cacheWith(UTF8_TEXT);
      const r = await admin.get(`/rest/${c}`, { Accept: 'text/plain; charset=KOI8-R' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('KOI8-R');
    });
  });
});
