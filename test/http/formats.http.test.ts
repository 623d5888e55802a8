import { expect } from 'chai';
import { useServer } from '../support/server';

const entry = (cache: string, key: string) => `/rest/v2/caches/${cache}/${key}`;
const hex = (s: string): Buffer => Buffer.from(s.replace(/\s/g, ''), 'hex');
const SCHEMA = [
  'package shop;',
  'enum Color { RED = 0; GREEN = 1; }',
  'message Item {',
  '  optional string name = 1;',
  '  optional int32 count = 2 [default = 7];',
  '  optional Color color = 3;',
  '  repeated string tags = 4;',
  '  optional Part part = 5;',
  '  map<string, int32> stock = 6;',
  '}',
  'message Part { optional string id = 1; }',
].join('\n');

describe('data formats over the entry API (docs/reference/media-types.md#media-types)', () => {
  const server = useServer();
  const admin = server.as('admin');
  let n = 0;
  const cacheWith = async (mediaType?: string): Promise<string> => {
    const name = `f${++n}`;
    await admin.createCache(name, { 'local-cache': mediaType ? { encoding: { 'media-type': mediaType } } : {} });
    return name;
  };

  before(async () => {
    expect((await admin.post('/rest/v2/schemas/shop', SCHEMA)).status).to.equal(201);
  });

  describe('a protostream cache', () => {
    it('stores JSON of a registered type and returns it as JSON (also for */*) and as protostream', async () => {
      const c = await cacheWith('application/x-protostream');
      const doc = { _type: 'shop.Item', name: 'pen', color: 'GREEN', tags: ['a', 'b'], part: { id: 'p1' }, stock: { x: 1 } };
      expect((await admin.put(entry(c, 'k'), JSON.stringify(doc), { 'Content-Type': 'application/json' })).status).to.equal(204);
      const json = await admin.get(entry(c, 'k'));
      expect(json.headers.get('content-type')).to.equal('application/json');
      // canonical JSON writes the fields present only: the proto2 [default = 7] of count is not filled in (docs/reference/query.md#result-json)
      expect(json.json()).to.deep.equal(doc);
      const proto = await admin.get(entry(c, 'k'), { Accept: 'application/x-protostream' });
      expect(proto.headers.get('content-type')).to.equal('application/x-protostream');
      // WrappedMessage: field 16 = type name, then field 17 = message bytes
      expect(proto.bytes.subarray(0, 12).equals(Buffer.concat([hex('82 01 09'), Buffer.from('shop.Item')]))).to.equal(true);
    });

    it('accepts protostream bytes and text, and returns primitives as canonical JSON', async () => {
      const c = await cacheWith('application/x-protostream');
      await admin.put(entry(c, 'int'), hex('28 02'), { 'Content-Type': 'application/x-protostream' });
      expect((await admin.get(entry(c, 'int'))).json()).to.deep.equal({ _type: 'int32', _value: 2 });
      expect((await admin.get(entry(c, 'int'), { Accept: 'application/x-protostream' })).bytes.equals(hex('28 02'))).to.equal(true);
      expect((await admin.get(entry(c, 'int'), { Accept: 'text/plain' })).text).to.equal('2');
      await admin.put(entry(c, 'text'), 'hello', { 'Content-Type': 'text/plain' });
      expect((await admin.get(entry(c, 'text'), { Accept: 'application/x-protostream' })).bytes.equals(hex('4a 05 68656c6c6f'))).to.equal(true);
      expect((await admin.get(entry(c, 'text'))).json()).to.deep.equal({ _type: 'string', _value: 'hello' });
      await admin.put(entry(c, 'prim'), '{"_type":"int64","_value":5}', { 'Content-Type': 'application/json' });
      expect((await admin.get(entry(c, 'prim'), { Accept: 'application/x-protostream' })).bytes.equals(hex('18 05'))).to.equal(true);
    });

    it('answers 400 Unknown type name for JSON of an unregistered type, 400 ISPN000492 for XML', async () => {
      const c = await cacheWith('application/x-protostream');
      const r = await admin.put(entry(c, 'k'), '{"_type":"future.Entity","a":1}', { 'Content-Type': 'application/json' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('Unknown type name : future.Entity');
      const xml = await admin.put(entry(c, 'k'), '<a/>', { 'Content-Type': 'application/xml' });
      expect(xml.status).to.equal(400);
      expect(xml.text).to.equal("ISPN000492: Cannot find transcoder between 'application/xml' to 'application/x-protostream'");
      await admin.put(entry(c, 'k'), 'v', { 'Content-Type': 'text/plain' });
      const read = await admin.get(entry(c, 'k'), { Accept: 'application/xml' });
      expect(read.status).to.equal(406);
      expect(read.text).to.equal('ISPN012007: Cannot convert to application/xml');
    });
  });

  describe('canonical protostream JSON fidelity (docs/reference/media-types.md#protostream-json)', () => {
    const NUMBERS = [
      'package t2;',
      'enum C { RED = 0; BLUE = 1; }',
      'message M {',
      '  optional int64 big = 1; optional uint64 ubig = 2; optional sint64 sbig = 3;',
      '  optional fixed64 fbig = 4; optional sfixed64 sfbig = 5; optional float fl = 6;',
      '  required string req = 7; optional C c = 8; optional N n = 9;',
      '  optional double d = 10; optional string s = 11 [default = "dflt"];',
      '}',
      'message N { optional int64 v = 1; }',
    ].join('\n');
    let c: string;
    const put = (key: string, body: string) => admin.put(entry(c, key), body, { 'Content-Type': 'application/json' });
    const roundTrip = async (key: string, body: string): Promise<string> => {
      expect((await put(key, body)).status).to.equal(204);
      return (await admin.get(entry(c, key))).text;
    };

    before(async () => {
      expect((await admin.post('/rest/v2/schemas/t2', NUMBERS)).status).to.equal(201);
      c = await cacheWith('application/x-protostream');
    });

    it('keeps every 64-bit integer kind exact both ways, as JSON numbers or strings', async () => {
      const body = '{"_type":"t2.M","big":-9223372036854775808,"ubig":18446744073709551615,"sbig":9223372036854775807,'
        + '"fbig":18446744073709551615,"sfbig":9007199254740993,"req":"y"}';
      expect(await roundTrip('limits', body)).to.equal(body);
      expect(await roundTrip('small', '{"_type":"t2.M","req":"y","big":12345678901234567}')).to.equal('{"_type":"t2.M","big":12345678901234567,"req":"y"}');
      expect(await roundTrip('quoted', '{"_type":"t2.M","req":"y","big":"9007199254740993"}')).to.equal('{"_type":"t2.M","big":9007199254740993,"req":"y"}');
      expect(await roundTrip('nested', '{"_type":"t2.M","req":"y","n":{"v":9223372036854775807}}')).to.equal('{"_type":"t2.M","req":"y","n":{"v":9223372036854775807}}');
    });

    it('keeps wrapped Long scalars exact and writes floats as their own shortest text', async () => {
      expect(await roundTrip('long', '{"_type":"int64","_value":9007199254740993}')).to.equal('{"_type":"int64","_value":9007199254740993}');
      expect(await roundTrip('max', '{"_type":"int64","_value":"9223372036854775807"}')).to.equal('{"_type":"int64","_value":9223372036854775807}');
      expect(await roundTrip('bare', '9007199254740993')).to.equal('{"_type":"int64","_value":9007199254740993}');
      expect(await roundTrip('fl', '{"_type":"t2.M","req":"y","fl":0.1}')).to.equal('{"_type":"t2.M","fl":0.1,"req":"y"}');
      expect(await roundTrip('flw', '{"_type":"float","_value":0.1}')).to.equal('{"_type":"float","_value":0.1}');
    });

    it('answers 400 for a 64-bit value out of range, and stores nothing', async () => {
      const r = await put('over', '{"_type":"t2.M","req":"y","big":9223372036854775808}');
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('For input string: "9223372036854775808"');
      expect((await put('neg', '{"_type":"t2.M","req":"y","ubig":-1}')).status).to.equal(400);
      expect((await admin.get(entry(c, 'over'))).status).to.equal(404);
    });

    it('refuses a field the schema does not declare (also nested) with 400, and stores nothing', async () => {
      const r = await put('extra', '{"_type":"t2.M","req":"y","extra":"lost"}');
      expect(r.status).to.equal(400);
      expect(r.text).to.equal("The field 'extra' was not found in the Protobuf schema");
      const nested = await put('extra', '{"_type":"t2.M","req":"y","n":{"v":1,"w":2}}');
      expect(nested.status).to.equal(400);
      expect(nested.text).to.equal("The field 'w' was not found in the Protobuf schema");
      expect((await admin.get(entry(c, 'extra'))).status).to.equal(404);
      // null writes nothing, as in the original
      expect(await roundTrip('nulls', '{"_type":"t2.M","req":"y","big":null}')).to.equal('{"_type":"t2.M","req":"y"}');
    });

    it('refuses an enum name the enum does not declare with 400', async () => {
      const r = await put('enum', '{"_type":"t2.M","req":"y","c":"PURPLE"}');
      expect(r.status).to.equal(400);
      expect(r.text).to.equal("Invalid enum value 'PURPLE'");
      expect(await roundTrip('enum', '{"_type":"t2.M","req":"y","c":"BLUE"}')).to.equal('{"_type":"t2.M","req":"y","c":"BLUE"}');
      const top = await put('enum', '{"_type":"t2.C","_value":"PURPLE"}');
      expect(top.status).to.equal(400);
      expect(top.text).to.equal("Invalid enum value : 'PURPLE'");
    });

    it('gives the same JSON on GET, ?action=entries and search: NaN/Infinity quoted, no defaults filled in', async () => {
      const body = '{"_type":"t2.M","fl":"NaN","req":"q","d":"Infinity"}';
      expect((await put('nan', body)).status).to.equal(204);
      const expected = '{"_type":"t2.M","fl":"NaN","req":"q","d":"Infinity"}';
      expect((await admin.get(entry(c, 'nan'))).text).to.equal(expected);
      const entries = await admin.get(`/rest/v2/caches/${c}?action=entries`);
      expect(entries.text).to.contain(`{"key":{"_type":"string","_value":"nan"},"value":${expected}}`);
      const search = await admin.get(`/rest/v2/caches/${c}?action=search&query=${encodeURIComponent("FROM t2.M WHERE req = 'q'")}`);
      expect(search.text).to.contain(`{"hit":${expected}}`);
    });
  });

  describe('a text cache', () => {
    it('wraps text read as XML in <string>, and keeps well-formed XML', async () => {
      const c = await cacheWith('text/plain');
      await admin.put(entry(c, 'k'), 'a<b', { 'Content-Type': 'text/plain' });
      const r = await admin.get(entry(c, 'k'), { Accept: 'application/xml' });
      expect(r.headers.get('content-type')).to.equal('application/xml');
      expect(r.text).to.equal('<string>a&lt;b</string>');
    });

    it('refuses text that is not JSON on a JSON cache, and negotiates text over unconvertible XML', async () => {
      const c = await cacheWith('application/json');
      // keys are JSON too in this cache: the text key "k" spells the JSON string k
      const k = entry(c, encodeURIComponent('"k"'));
      const r = await admin.put(k, 'not json', { 'Content-Type': 'text/plain' });
      expect(r.status).to.equal(400);
      expect((await admin.put(k, '{"a":1}', { 'Content-Type': 'text/plain' })).status).to.equal(204);
      const accept = 'application/xml, text/plain; q=0.71, */*;q=0.7';
      expect((await admin.get(k, { Accept: accept })).headers.get('content-type')).to.equal('text/plain');
    });
  });

  describe('a Java object cache', () => {
    it('stores typed values and answers text, JSON, XML, Java serialization and JBoss marshalling byte-exact', async () => {
      const c = await cacheWith('application/x-java-object');
      await admin.put(entry(c, 'n'), '42', { 'Content-Type': 'application/x-java-object; type=java.lang.Integer' });
      const get = async (accept: string) => (await admin.get(entry(c, 'n'), { Accept: accept })).bytes;
      expect((await admin.get(entry(c, 'n'))).headers.get('content-type')).to.equal('text/plain');
      expect((await get('text/plain')).toString()).to.equal('42');
      expect((await get('application/json')).toString()).to.equal('42');
      expect((await get('application/xml')).toString()).to.equal('<int>42</int>');
      expect((await get('application/x-jboss-marshalling')).equals(hex('03 4b 0000002a'))).to.equal(true);
      const serialized = await get('application/x-java-serialized-object');
      expect(serialized.subarray(0, 7).equals(hex('aced0005 7372 00'))).to.equal(true);
      expect(serialized.subarray(-4).equals(hex('0000002a'))).to.equal(true);
    });

    it('reads Java-serialized strings and refuses other classes with 400', async () => {
      const c = await cacheWith('application/x-java-object');
      await admin.put(entry(c, 's'), hex('aced0005 74 0003 616263'), { 'Content-Type': 'application/x-java-serialized-object' });
      expect((await admin.get(entry(c, 's'))).text).to.equal('abc');
      const date = hex(`aced0005 7372 000e ${Buffer.from('java.util.Date').toString('hex')} 686a81014b597419 03 0000 7870 7708 0000000000000000 78`);
      const r = await admin.put(entry(c, 'd'), date, { 'Content-Type': 'application/x-java-serialized-object' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal("Class 'java.util.Date' blocked by deserialization allow list");
    });
  });

  describe('Key-Content-Type', () => {
    it('goes through the same registry: unsupported key types answer 400 ISPN000492', async () => {
      const c = await cacheWith('text/plain');
      const r = await admin.put(entry(c, 'k'), 'v', { 'Key-Content-Type': 'image/png' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal("ISPN000492: Cannot find transcoder between 'image/png' to 'text/plain'");
    });
  });

  describe('storage defaults', () => {
    it('keeps raw bytes in an unconfigured cache and reads them back as octet-stream', async () => {
      const c = await cacheWith();
      await admin.put(entry(c, 'k'), hex('00ff'), { 'Content-Type': 'application/json' });
      const r = await admin.get(entry(c, 'k'));
      expect(r.headers.get('content-type')).to.equal('application/octet-stream');
      expect(r.bytes.equals(hex('00ff'))).to.equal(true);
    });
  });

  describe('content encodings: encoding=hex|base64 and form-urlencoded (commons MediaTypeCodecs)', () => {
    it('stores a form-urlencoded value decoded: word1+word2 reads as text word1 word2 (BaseCacheResourceTest)', async () => {
      const c = await cacheWith();
      expect((await admin.put(entry(c, 'test'), 'word1+word2', { 'Content-Type': 'application/x-www-form-urlencoded' })).status).to.equal(204);
      const r = await admin.get(entry(c, 'test'), { Accept: 'text/plain' });
      expect(r.headers.get('content-type')).to.equal('text/plain');
      expect(r.text).to.equal('word1 word2');
    });

    it('answers 400 with the URLDecoder text for a broken escape, and stores nothing', async () => {
      const c = await cacheWith();
      const r = await admin.put(entry(c, 'k'), 'a%zz', { 'Content-Type': 'application/x-www-form-urlencoded' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('URLDecoder: Illegal hex characters in escape (%) pattern - Error at index 0 in: "zz"');
      expect((await admin.get(entry(c, 'k'))).status).to.equal(404);
    });

    it('stores a hex value as its bytes and reads it back as hex or Base64 when Accept asks', async () => {
      const c = await cacheWith();
      await admin.put(entry(c, 'k'), '0x010203', { 'Content-Type': 'application/octet-stream; encoding=hex' });
      expect((await admin.get(entry(c, 'k'))).bytes.equals(hex('010203'))).to.equal(true);
      const asHex = await admin.get(entry(c, 'k'), { Accept: 'application/octet-stream; encoding=hex' });
      expect(asHex.headers.get('content-type')).to.equal('application/octet-stream;encoding=hex');
      expect(asHex.text).to.equal('0x010203');
      expect((await admin.get(entry(c, 'k'), { Accept: 'application/octet-stream; encoding=base64' })).text).to.equal('AQID');
    });
  });

  describe('GET /rest/v2/caches/{cacheName}?action=entries&content-negotiation=true on unencoded binary data', () => {
    // CacheResourceV2Test.testStreamFromDefaultCache: write in hex, list, write back in the listed type
    it('lists keys and values as 0x hex of the stored bytes, in a type a client can write back', async () => {
      const c = await cacheWith();
      const hexType = { 'Key-Content-Type': 'application/octet-stream; encoding=hex', 'Content-Type': 'application/octet-stream; encoding=hex' };
      await admin.put(entry(c, '0x01'), '0x010203', hexType);
      await admin.put(entry(c, '0x02'), '0x020406', hexType);
      const r = await admin.get(`/rest/v2/caches/${c}?action=entries&content-negotiation=true`);
      expect(r.headers.get('key-content-type')).to.equal('application/octet-stream; encoding=hex');
      const valueType = r.headers.get('value-content-type')!;
      expect(valueType).to.equal('application/octet-stream; encoding=hex');
      // in the engine's order (the original's is its segments')
      expect(r.json<Array<{ key: string }>>().sort((x, y) => x.key.localeCompare(y.key))).to.deep.equal([{ key: '0x01', value: '0x010203' }, { key: '0x02', value: '0x020406' }]);
      await admin.put(entry(c, '0x01'), '0x0a0b', { 'Key-Content-Type': valueType, 'Content-Type': valueType });
      const again = (await admin.get(`/rest/v2/caches/${c}?action=entries&content-negotiation=true`)).json<Array<{ key: string; value: string }>>();
      expect(again.find((e) => e.key === '0x01')!.value).to.equal('0x0a0b');
    });

    it('answers 403 without BULK_READ (application role has it, monitor has not)', async () => {
      const c = await cacheWith();
      expect((await server.as('monitor').get(`/rest/v2/caches/${c}?action=entries&content-negotiation=true`)).status).to.equal(403);
    });
  });
});
