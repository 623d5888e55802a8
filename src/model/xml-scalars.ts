import { lazy } from '../util/lazy';
import { InvalidContentError, UnsupportedJavaClassError } from '../errors';
import { javaToString, parseJavaText, type JavaType, type JavaValue } from './java-value';

const xmlJs = lazy(() => require('xml-js') as typeof import('xml-js'));

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

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function isWellFormedXml(text: string): boolean {
  try {
    xmlJs().xml2js(text);
    return /<[^!?]/.test(text);
  } catch {
    return false;
  }
}

export function toXml(v: JavaValue): Buffer {
  const body = v.type === 'byte[]' ? v.value.toString('base64') : escapeXml(javaToString(v));
  return Buffer.from(`<${TAGS[v.type]}>${body}</${TAGS[v.type]}>`, 'utf8');
}

/** Text as XML: kept when well-formed, else wrapped as a string. */
export function textToXml(text: string): Buffer {
  return isWellFormedXml(text) ? Buffer.from(text, 'utf8') : toXml({ type: 'java.lang.String', value: text });
}

export function fromXml(text: string): JavaValue {
  let doc: { elements?: Array<{ type: string; name?: string; elements?: Array<{ type: string; text?: string | number }> }> };
  try {
    doc = xmlJs().xml2js(text, { compact: false, nativeType: false }) as typeof doc;
  } catch (err) {
    throw new InvalidContentError((err as Error).message.split('\n')[0]);
  }
  const root = doc.elements?.find((e) => e.type === 'element');
  const type = (Object.keys(TAGS) as JavaType[]).find((t) => TAGS[t] === root?.name);
  if (!root || !type) throw new UnsupportedJavaClassError(root?.name ?? '');
  const inner = (root.elements ?? []).map((e) => String(e.text ?? '')).join('');
  if (type === 'byte[]') return { type, value: Buffer.from(inner, 'base64') };
  return parseJavaText(inner, type);
}
