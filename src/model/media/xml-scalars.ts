import { lazy } from '../../util/lazy';
import { InvalidContentError, UnsupportedJavaClassError } from '../../errors';
import { javaToString, parseJavaText, type JavaType, type JavaValue } from '../java/java-value';

/** The part of sax (the parser under xml-js) used here: a strict parser fed one string. */
interface SaxParser {
  opt: Record<string, unknown>;
  onerror: (err: Error) => void;
  onopentag: (tag: { name: string }) => void;
  onclosetag: () => void;
  ontext: (text: string) => void;
  write(text: string): SaxParser;
  close(): SaxParser;
}
const sax = lazy(() => require('sax') as { parser(strict: boolean, opt: object): SaxParser });

/**
 * XML of Java scalars as the original's XStream-based XMLTranscoder writes them:
 * `<string>foo</string>`, `<int>1</int>`, `<byte-array>BASE64</byte-array>`…; plain text that is
 * not well-formed XML becomes `<string>…</string>` (BaseCacheResourceTest.testInvalidXMLConversion).
 */
const TAGS: Record<JavaType, string> = {
  'java.lang.String': 'string', 'java.lang.Integer': 'int', 'java.lang.Long': 'long', 'java.lang.Short': 'short',
  'java.lang.Byte': 'byte', 'java.lang.Boolean': 'boolean', 'java.lang.Double': 'double', 'java.lang.Float': 'float',
  'java.lang.Character': 'char', 'byte[]': 'byte-array',
};

interface XmlEvents {
  open?(name: string, depth: number): void;
  close?(depth: number): void;
  text?(text: string, depth: number): void;
}

/**
 * Parses `text` as xml-js parsed it (sax, strict, with xml-js's options) and answers the first
 * line of the first error, or undefined when the text is well-formed. The parse stops at that
 * first error: xml-js let sax go on, and sax reports every later character of text that is not
 * XML as one more error, each a new Error with its message built — 9.9 MB that was not XML held
 * the loop 40 s and 900 MB. So "is this XML?" costs one character for most text that is not, and
 * one linear pass for text that looks like XML. Errors found only at the end (an unclosed root)
 * never made xml-js throw, and do not count here either.
 */
function scanXml(text: string, on: XmlEvents = {}): string | undefined {
  const parser = sax().parser(true, {});
  parser.opt = { strictEntities: true }; // what xml-js sets after creating its parser
  let closing = false;
  let depth = 0;
  parser.onerror = (err) => {
    if (!closing) throw err;
  };
  parser.onopentag = (tag) => on.open?.(tag.name, depth++);
  parser.onclosetag = () => on.close?.(--depth);
  parser.ontext = (t) => on.text?.(t, depth);
  try {
    parser.write(text);
  } catch (err) {
    return (err as Error).message.split('\n')[0];
  }
  closing = true;
  parser.close();
  return undefined;
}

/** Linear: three native passes (`&` first, so no escape is escaped again). */
function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function isWellFormedXml(text: string): boolean {
  return scanXml(text) === undefined && /<[^!?]/.test(text);
}

export function toXml(v: JavaValue): Buffer {
  const body = v.type === 'byte[]' ? v.value.toString('base64') : escapeXml(javaToString(v));
  return Buffer.from(`<${TAGS[v.type]}>${body}</${TAGS[v.type]}>`, 'utf8');
}

/** Text as XML: kept when well-formed, else wrapped as a string. */
export function textToXml(text: string): Buffer {
  return isWellFormedXml(text) ? Buffer.from(text, 'utf8') : toXml({ type: 'java.lang.String', value: text });
}

/**
 * The Java value of an XStream document: the first element names the type, and its value is the
 * text directly inside it, without the runs that are only white space (xml-js's tree dropped them).
 */
export function fromXml(text: string): JavaValue {
  let root: string | undefined;
  let inRoot = false;
  const parts: string[] = [];
  const error = scanXml(text, {
    open: (name, depth) => {
      if (depth === 0 && root === undefined) {
        root = name;
        inRoot = true;
      }
    },
    close: (depth) => {
      if (depth === 0) inRoot = false;
    },
    text: (t, depth) => {
      if (inRoot && depth === 1 && t.trim() !== '') parts.push(t);
    },
  });
  if (error !== undefined) throw new InvalidContentError(error);
  const type = (Object.keys(TAGS) as JavaType[]).find((t) => TAGS[t] === root);
  if (root === undefined || !type) throw new UnsupportedJavaClassError(root ?? '');
  const inner = parts.join('');
  if (type === 'byte[]') return { type, value: Buffer.from(inner, 'base64') };
  return parseJavaText(inner, type);
}
