/** The fields of an `Authorization: Digest …` header (RFC 7616); undefined when it does not parse. */
export type DigestFields = Record<string, string>;

const PAIR = /\s*([a-zA-Z0-9_-]+\*?)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]*))\s*(?:,|$)/y;

export function parseDigestFields(text: string): DigestFields | undefined {
  const fields: DigestFields = {};
  PAIR.lastIndex = 0;
  while (PAIR.lastIndex < text.length) {
    const start = PAIR.lastIndex;
    const m = PAIR.exec(text);
    if (!m || PAIR.lastIndex === start) return undefined;
    fields[m[1].toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3];
  }
  const username = fields['username*'] !== undefined ? extValue(fields['username*']) : fields.username && utf8Text(fields.username);
  if (username === undefined) return undefined;
  fields.username = username;
  for (const required of ['username', 'nonce', 'uri', 'response']) if (!fields[required]) return undefined;
  return fields;
}

/**
 * HTTP hands header values over as Latin-1 (one character per byte); clients send a user name
 * that is not ASCII as its UTF-8 bytes (browsers, curl). Decoded back when those bytes are UTF-8.
 */
function utf8Text(latin1: string): string {
  if (/^[\x00-\x7f]*$/.test(latin1)) return latin1;
  const bytes = Buffer.from(latin1, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : latin1;
}

/** RFC 7616 `username*` (RFC 8187 ext-value: `UTF-8''%C3%BC…`); undefined when it does not decode. */
function extValue(value: string): string | undefined {
  const m = /^UTF-8'[^']*'(.+)$/i.exec(value);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
}
