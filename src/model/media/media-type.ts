import { InvalidMediaTypeError } from '../../errors';

/** A parsed media type: `type/subtype;param=value`, with its q-weight when it came from a list. */
export interface MediaType {
  type: string;
  subtype: string;
  params: Readonly<Record<string, string>>;
  weight: number;
  /** The text as the client sent it (responses echo it, docs/reference/media-types.md#read-negotiation). */
  raw: string;
}

export const MATCH_ALL = '*/*';
export const APPLICATION_UNKNOWN = 'application/unknown';
export const OCTET_STREAM = 'application/octet-stream';
export const TEXT_PLAIN = 'text/plain';
export const JAVA_OBJECT = 'application/x-java-object';
export const JSON_TYPE = 'application/json';
export const XML_TYPE = 'application/xml';
export const YAML_TYPE = 'application/yaml';
export const PROTOSTREAM = 'application/x-protostream';
export const FORM_URLENCODED = 'application/x-www-form-urlencoded';
export const JAVA_SERIALIZED = 'application/x-java-serialized-object';
export const JBOSS_MARSHALLING = 'application/x-jboss-marshalling';

export function essence(m: MediaType): string {
  return `${m.type}/${m.subtype}`;
}

/** The media type as a header value, parameters kept and the q-weight dropped. */
export function formatMediaType(m: MediaType): string {
  return essence(m) + Object.entries(m.params).map(([k, v]) => `;${k}=${v}`).join('');
}

/** Parses one media type (commons MediaType.fromString; ISPN000929/000930/000935 on error). */
export function parseMediaType(text: string): MediaType {
  const raw = text.trim();
  if (raw === '') throw new InvalidMediaTypeError('ISPN000929: MediaType cannot be empty or null!');
  const [head, ...rest] = raw.split(';');
  const slash = head.indexOf('/');
  const type = head.slice(0, slash).trim().toLowerCase();
  const subtype = head.slice(slash + 1).trim().toLowerCase();
  if (slash < 0 || type === '' || subtype === '' || /\s/.test(type) || /\s/.test(subtype)) {
    throw new InvalidMediaTypeError(`ISPN000930: Invalid media type '${raw}': must contain a type and a subtype separated by '/'`);
  }
  const params: Record<string, string> = {};
  let weight = 1;
  for (const part of rest) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) throw new InvalidMediaTypeError(`Invalid parameter '${part.trim()}' in media type '${raw}'`);
    const name = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    if (name === 'q') {
      weight = Number(value);
      if (value === '' || !Number.isFinite(weight)) throw new InvalidMediaTypeError(`ISPN000935: Invalid weight '${value}'. Supports only decimal numbers between 0 and 1`);
      continue;
    }
    params[name] = value;
  }
  return { type, subtype, params, weight, raw };
}

/** Parses an Accept-style list, highest weight first (stable for equal weights). */
export function parseMediaTypeList(header: string): MediaType[] {
  const items = header.split(',').filter((s) => s.trim() !== '').map(parseMediaType);
  if (items.length === 0) throw new InvalidMediaTypeError('ISPN000929: MediaType cannot be empty or null!');
  return items.map((m, i) => ({ m, i })).sort((a, b) => b.m.weight - a.m.weight || a.i - b.i).map((x) => x.m);
}

/** True when either side is `*∕*` or the type/subtype are equal; parameters are ignored (docs/reference/media-types.md#media-type-syntax). */
export function matches(a: string, b: string): boolean {
  return a === MATCH_ALL || b === MATCH_ALL || a === b;
}
