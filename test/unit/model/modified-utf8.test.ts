import { expect } from 'chai';
import fc from 'fast-check';
import { decodeModifiedUtf8, encodeModifiedUtf8 } from '../../../src/model/java/modified-utf8';

// Java's modified UTF-8 one character at a time (DataOutputStream.writeUTF, DataInputStream.readUTF)
function referenceEncode(s: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 1 && c <= 0x7f) out.push(c);
    else if (c <= 0x7ff) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Buffer.from(out);
}

function referenceDecode(b: Buffer, strict: boolean): string | undefined {
  let s = '';
  for (let i = 0; i < b.length;) {
    const c = b[i];
    if (c < 0x80) { s += String.fromCharCode(c); i += 1; continue; }
    if ((c & 0xe0) === 0xc0 && (!strict || i + 1 < b.length)) {
      s += String.fromCharCode(((c & 0x1f) << 6) | ((b[i + 1] ?? 0) & 0x3f));
      i += 2;
      continue;
    }
    if (strict && !((c & 0xf0) === 0xe0 && i + 2 < b.length)) return undefined;
    s += String.fromCharCode(((c & 0x0f) << 12) | (((b[i + 1] ?? 0) & 0x3f) << 6) | ((b[i + 2] ?? 0) & 0x3f));
    i += 3;
  }
  return s;
}

const texts = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.array(fc.constantFrom('\0', '\ud800', '\udc00', 'a', 'é', '\u0800', '\uffff', '😀'), { maxLength: 10 }).map((a) => a.join('')),
);

describe('modified UTF-8', () => {
  it('writes any string as Java does: NUL as C0 80, each half of a surrogate pair as three bytes', () => {
    fc.assert(fc.property(texts, (s) => {
      expect(encodeModifiedUtf8(s).toString('hex')).to.equal(referenceEncode(s).toString('hex'));
    }), { numRuns: 20_000 });
  });

  it('reads back what it wrote, and any bytes as the strict and the lenient reader do', () => {
    fc.assert(fc.property(texts, fc.uint8Array({ maxLength: 24 }), (s, raw) => {
      expect(decodeModifiedUtf8(encodeModifiedUtf8(s), true)).to.equal(s);
      const bytes = Buffer.from(raw);
      expect(decodeModifiedUtf8(bytes, true)).to.equal(referenceDecode(bytes, true));
      expect(decodeModifiedUtf8(bytes, false)).to.equal(referenceDecode(bytes, false));
    }), { numRuns: 20_000 });
  });
});
