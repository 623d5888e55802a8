import { resolveCharset } from '../../model/charsets';
import { encodeHex } from '../../model/content-codecs';
import { type MediaType, OCTET_STREAM, parseMediaType, TEXT_PLAIN } from '../../model/media-type';
import type { Services } from '../../services';
import { pickAmong } from '../negotiate';
import { sendBytes, sendStatus, sendText } from '../respond';
import { M, typed } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';
import { escapeXml } from '../xml-escape';

type KeyFormat = 'text' | 'json' | 'xml' | 'hex';

const KEY_FORMATS: Record<string, KeyFormat> = {
  'text/plain': 'text', 'application/json': 'json', 'application/xml': 'xml', 'application/octet-stream': 'hex',
};

const CONTENT_TYPES: Record<KeyFormat, string> = {
  text: 'text/plain', json: 'application/json', xml: 'application/xml', hex: 'application/octet-stream',
};

/**
 * The legacy v1 cache paths (spec 1 "Legacy v1 API", behavior-notes §18): list keys and clear.
 * Entry paths live with the v2 ones in entries.routes.ts; `?action=search` in search.routes.ts.
 */
export function legacyRoutes(): RouteSpec[] {
  return [
    { method: 'GET', path: '/rest/:cache', scope: 'cache', permission: 'BULK_READ', handle: (ctx, s) => listKeys(ctx, s),
      doc: { summary: 'Every key, in the format Accept names (v1)', responses: { 200: typed('Lines of text or hex, XML, or `keys=[…]` for JSON', M.text, M.xml, M.json, M.octets) }, deprecated: true } },
    { method: 'DELETE', path: '/rest/:cache', scope: 'cache', permission: 'BULK_WRITE', handle: (ctx, s) => clear(ctx, s),
      doc: { summary: 'Remove every entry (v1)', responses: { 200: 'Done' }, deprecated: true } },
  ];
}

/** Keys are converted to text, or to octet-stream bytes for the hex listing. */
const KEY_TARGETS: Record<KeyFormat, MediaType> = {
  text: parseMediaType(TEXT_PLAIN), json: parseMediaType(TEXT_PLAIN), xml: parseMediaType(TEXT_PLAIN), hex: parseMediaType(OCTET_STREAM),
};

async function listKeys(ctx: GridContext, s: Services): Promise<void> {
  const { format, accepted } = pickAmong(ctx.get('accept') || undefined, KEY_FORMATS);
  // text in the charset Accept names, echoed in Content-Type (behavior-notes §18); unknown → 400
  const charsetName = format === 'text' ? accepted?.params.charset : undefined;
  const charset = charsetName === undefined ? undefined : resolveCharset(charsetName);
  const keys: Buffer[] = [];
  for await (const key of s.bulk.keys(ctx.state.cache, KEY_TARGETS[format])) keys.push(key);
  ctx.set('Cache-Control', 'no-cache');
  const text = renderKeys(keys, format);
  if (charset === undefined) return sendText(ctx, text, CONTENT_TYPES[format]);
  sendBytes(ctx, charset.encode(text), `${TEXT_PLAIN}; charset=${charsetName}`);
}

/** The original's renderings: lines of text or hex, XML elements, and the non-JSON `keys=[a,b]`. */
function renderKeys(keys: Buffer[], format: KeyFormat): string {
  const text = keys.map((k) => k.toString('utf8'));
  switch (format) {
    case 'text': return text.join('\n');
    case 'hex': return keys.map(encodeHex).join('\n');
    case 'json': return `keys=[${text.join(',')}]`;
    case 'xml': return '<?xml version="1.0" encoding="UTF-8"?><keys>' + text.map((k) => `<key>${escapeXml(k)}</key>`).join('') + '</keys>';
  }
}

async function clear(ctx: GridContext, s: Services): Promise<void> {
  await s.caches.clear(ctx.state.cache);
  sendStatus(ctx, 200);
}
