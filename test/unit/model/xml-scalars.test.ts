import { expect } from 'chai';
import fc from 'fast-check';
import { InvalidContentError, UnsupportedJavaClassError } from '../../../src/errors';
import { type JavaType, type JavaValue, parseJavaText } from '../../../src/model/java/java-value';
import { fromXml, isWellFormedXml, textToXml } from '../../../src/model/media/xml-scalars';

// xml-js, which read these documents before: the reference for which text is XML and what it holds
const xmlJs = require('xml-js') as typeof import('xml-js');

interface Node { type: string; name?: string; text?: unknown; elements?: Node[] }

function referenceWellFormed(text: string): boolean {
  try {
    xmlJs.xml2js(text);
    return /<[^!?]/.test(text);
  } catch {
    return false;
  }
}

const TAGS: Record<string, JavaType> = {
  string: 'java.lang.String', int: 'java.lang.Integer', long: 'java.lang.Long', short: 'java.lang.Short', byte: 'java.lang.Byte',
  boolean: 'java.lang.Boolean', double: 'java.lang.Double', float: 'java.lang.Float', char: 'java.lang.Character', 'byte-array': 'byte[]',
};

/** The value of a document as grid read it through xml-js's tree: the first element and its own text nodes. */
function referenceFromXml(text: string): JavaValue {
  let doc: Node;
  try {
    doc = xmlJs.xml2js(text, { compact: false, nativeType: false }) as Node;
  } catch (err) {
    throw new InvalidContentError((err as Error).message.split('\n')[0]);
  }
  const root = doc.elements?.find((e) => e.type === 'element');
  const type = root?.name === undefined ? undefined : TAGS[root.name];
  if (!root || !type) throw new UnsupportedJavaClassError(root?.name ?? '');
  const inner = (root.elements ?? []).map((e) => String(e.text ?? '')).join('');
  if (type === 'byte[]') return { type, value: Buffer.from(inner, 'base64') };
  return parseJavaText(inner, type);
}

/** A value or the error it raised, comparable; parser errors by class only (see the next test for their text). */
function outcome(read: () => JavaValue): string {
  try {
    return JSON.stringify(read(), (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
  } catch (err) {
    return err instanceof InvalidContentError ? 'InvalidContentError' : `${(err as Error).name}: ${(err as Error).message}`;
  }
}

const pieces = fc.oneof(
  fc.constantFrom('<', '>', '</', '/>', '<string>', '</string>', '<int>', '</int>', '<a>', '</a>', '<byte-array>', '</byte-array>',
    '<!--c-->', '<![CDATA[x<]]>', '<?xml version="1.0"?>', '<!DOCTYPE a>', '&amp;', '&lt;', '&bogus;', '&#65;', ' ', '\n', '\t',
    'x', '42', ' a="1"', "'", '"', '=', 'é', '😀', '\ufeff', '<long>', '</long>', '<char>', '</char>'),
  fc.string({ maxLength: 3 }),
);
const documents = fc.array(pieces, { maxLength: 14 }).map((parts) => parts.join(''));

describe('XStream-shaped XML of scalars', () => {
  it('tells XML from other text as xml-js did, on any text', () => {
    fc.assert(fc.property(documents, (text) => {
      expect(isWellFormedXml(text), JSON.stringify(text)).to.equal(referenceWellFormed(text));
    }), { numRuns: 5_000 });
  });

  it('reads the value of a document as xml-js did: the first element names the type, its own text is the value', () => {
    fc.assert(fc.property(documents, (text) => {
      expect(outcome(() => fromXml(text)), JSON.stringify(text)).to.equal(outcome(() => referenceFromXml(text)));
    }), { numRuns: 5_000 });
  });

  it('stops at the first error: text after the root answers at once, with that error', () => {
    const text = `<string>a</string>${'x'.repeat(1_000_000)}`;
    expect(isWellFormedXml(text)).to.equal(false);
    expect(() => fromXml(text)).to.throw(InvalidContentError, /^Text data outside of root node\.$/);
    expect(() => fromXml('not xml')).to.throw(InvalidContentError, /^Non-whitespace before first tag\.$/);
  });

  it('wraps text that is not XML as an escaped <string>, and keeps XML as it is', () => {
    expect(textToXml('a<b & c>').toString()).to.equal('<string>a&lt;b &amp; c&gt;</string>');
    expect(textToXml('<a>b</a>').toString()).to.equal('<a>b</a>');
    // an unclosed root is found only at the end, which never made xml-js throw: kept as it is
    expect(textToXml('<a>b').toString()).to.equal('<a>b');
  });
});
