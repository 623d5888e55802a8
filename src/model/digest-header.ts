/** The fields of an `Authorization: Digest …` header (RFC 7616); undefined when it does not parse. */
export type DigestFields = Record<string, string>;

const PAIR = /\s*([a-zA-Z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]*))\s*(?:,|$)/y;

export function parseDigestFields(text: string): DigestFields | undefined {
  const fields: DigestFields = {};
  PAIR.lastIndex = 0;
  while (PAIR.lastIndex < text.length) {
    const start = PAIR.lastIndex;
    const m = PAIR.exec(text);
    if (!m || PAIR.lastIndex === start) return undefined;
    fields[m[1].toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3];
  }
  for (const required of ['username', 'nonce', 'uri', 'response']) if (!fields[required]) return undefined;
  return fields;
}
