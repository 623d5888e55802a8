import { expect } from 'chai';
import { convertLegacyKey } from '../../../src/model/media/legacy-keys';
import { parseMediaType } from '../../../src/model/media/media-type';
import { NO_TYPES } from '../../../src/model/protobuf/protostream-json';

const hex = (b: Buffer | undefined): string | undefined => b?.toString('hex');
const convert = (key: Buffer | string, storage: string): string | undefined =>
  hex(convertLegacyKey(typeof key === 'string' ? Buffer.from(key) : key, parseMediaType(storage), NO_TYPES));

describe('convertLegacyKey: keys of grid 0.1.0 data (docs/data-formats.md "Keys written by grid 0.1.0")', () => {
  describe('protostream key storage', () => {
    const P = 'application/x-protostream';

    it('wraps a text key as a WrappedMessage string', () => {
      expect(convert('alice', P)).to.equal('4a05' + Buffer.from('alice').toString('hex'));
    });

    it("turns the console's canonical JSON key into its message", () => {
      expect(convert('{"_type":"string","_value":"alice"}', P)).to.equal('4a05' + Buffer.from('alice').toString('hex'));
      expect(convert('{"_type":"int32","_value":"42"}', P)).to.equal('282a');
    });

    it('keeps a key that already is a WrappedMessage (Java-typed keys were stored that way)', () => {
      expect(convert(Buffer.from('282a', 'hex'), P)).to.equal(undefined);
      expect(convert(Buffer.from('4a05616c696365', 'hex'), P)).to.equal(undefined);
    });

    it('wraps bytes that are not UTF-8 as WrappedMessage bytes, and the empty key as the empty string', () => {
      expect(convert(Buffer.from('ff00', 'hex'), P)).to.equal('5202ff00');
      expect(convert(Buffer.alloc(0), P)).to.equal('4a00');
    });

    it('wraps JSON of an unknown type as text rather than failing', () => {
      expect(convert('{"_type":"x.Y"}', P)).to.equal('4a0f' + Buffer.from('{"_type":"x.Y"}').toString('hex'));
    });

    it('is idempotent: a converted key is never converted again', () => {
      const once = convertLegacyKey(Buffer.from('alice'), parseMediaType(P), NO_TYPES)!;
      expect(convertLegacyKey(once, parseMediaType(P), NO_TYPES)).to.equal(undefined);
    });
  });

  describe('Java object key storage', () => {
    const J = 'application/x-java-object';

    it('wraps a text key as a String and keeps scalar WrappedMessages', () => {
      expect(convert('k1', J)).to.equal('4a026b31');
      expect(convert(Buffer.from('182a', 'hex'), J)).to.equal(undefined);
    });
  });

  describe('JSON key storage', () => {
    const JS = 'application/json';

    it('makes text that is not JSON a JSON string, keeps JSON and the empty key', () => {
      expect(convert('alice', JS)).to.equal(Buffer.from('"alice"').toString('hex'));
      expect(convert('{"v":1}', JS)).to.equal(undefined);
      expect(convert('42', JS)).to.equal(undefined);
      expect(convert(Buffer.alloc(0), JS)).to.equal(undefined);
    });

    it('keeps bytes that are not UTF-8 (no text to quote)', () => {
      expect(convert(Buffer.from('ff', 'hex'), JS)).to.equal(undefined);
    });
  });

  it('never touches keys of text, octet-stream or unconfigured storage', () => {
    for (const s of ['text/plain', 'application/octet-stream', 'application/unknown']) {
      expect(convert('alice', s)).to.equal(undefined);
      expect(convert(Buffer.from('282a', 'hex'), s)).to.equal(undefined);
    }
  });
});
