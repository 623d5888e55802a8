import { Readable } from 'node:stream';
import { type Charset, resolveCharset } from '../../model/media/charsets';
import { encodeHex } from '../../model/media/content-codecs';
import { type MediaType, OCTET_STREAM, parseMediaType, TEXT_PLAIN } from '../../model/media/media-type';
import type { Services } from '../../services';
import { pickAmong } from '../negotiate';
import { headerText } from '../request-headers';
import { sendStatus } from '../respond';
import { MEDIA, typed } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';
import { between, formatPages, type Pages } from '../../util/pages';
import { inChunks } from '../../util/slices';
import { escapeXml } from '../xml-escape';

type KeyFormat = 'text' | 'json' | 'xml' | 'hex';

const KEY_FORMATS: Record<string, KeyFormat> = {
  'text/plain': 'text', 'application/json': 'json', 'application/xml': 'xml', 'application/octet-stream': 'hex',
};

const CONTENT_TYPES: Record<KeyFormat, string> = {
  text: 'text/plain', json: 'application/json', xml: 'application/xml', hex: 'application/octet-stream',
};

/**
 * The legacy v1 cache paths (docs/reference/data-plane.md#legacy-v1): list keys and clear.
 * Entry paths live with the v2 ones in entries.routes.ts; `?action=search` in search.routes.ts.
 */
export function legacyRoutes(): RouteSpec[] {
  return [
    { method: 'GET', path: '/rest/:cache', scope: 'cache', permission: 'BULK_READ', handle: (ctx, s) => listKeys(ctx, s),
      doc: { summary: 'Every key, in the format Accept names (v1)', responses: { 200: typed('Lines of text or hex, XML, or `keys=[…]` for JSON', MEDIA.text, MEDIA.xml, MEDIA.json, MEDIA.octets) }, deprecated: true } },
    { method: 'DELETE', path: '/rest/:cache', scope: 'cache', permission: 'BULK_WRITE', handle: (ctx, s) => clear(ctx, s),
      doc: { summary: 'Remove every entry (v1)', responses: { 200: 'Done' }, deprecated: true } },
  ];
}

/** Keys are converted to text, or to octet-stream bytes for the hex listing. */
const KEY_TARGETS: Record<KeyFormat, MediaType> = {
  text: parseMediaType(TEXT_PLAIN), json: parseMediaType(TEXT_PLAIN), xml: parseMediaType(TEXT_PLAIN), hex: parseMediaType(OCTET_STREAM),
};

/**
 * Streamed in chunks (src/util/slices.ts): a listing of a million keys once held the event loop for
 * seconds as one string. The first chunk is made before the answer starts, so a cache whose keys do
 * not convert is still answered with its error.
 */
async function listKeys(ctx: GridContext, s: Services): Promise<void> {
  const { format, accepted } = pickAmong(headerText(ctx, 'accept'), KEY_FORMATS);
  // text in the charset Accept names, echoed in Content-Type (docs/reference/data-plane.md#legacy-v1); unknown → 400
  const charsetName = format === 'text' ? accepted?.params.charset : undefined;
  const charset = charsetName === undefined ? undefined : resolveCharset(charsetName);
  const cache = ctx.state.cache;
  const target = KEY_TARGETS[format];
  const keys = s.bulk.keys(cache);
  const text = inChunks(renderKeys(keys, format, (key) => s.bulk.keyAs(cache, key, target)));
  const chunks = charset === undefined ? text : encoded(text, charset);
  const first = await chunks.next();
  ctx.set('Cache-Control', 'no-cache');
  ctx.status = 200;
  if (charset === undefined) ctx.type = CONTENT_TYPES[format]; // Koa adds `; charset=utf-8` to text types
  else ctx.set('Content-Type', `${TEXT_PLAIN}; charset=${charsetName}`);
  ctx.body = Readable.from(first.done ? [] : prepend(first.value, chunks));
}

/** The original's renderings, a key at a time: lines of text or hex, XML elements, and the non-JSON `keys=[a,b]`. */
function renderKeys(keys: Pages<Buffer>, format: KeyFormat, convert: (key: Buffer) => Buffer): Pages<string> {
  const open = format === 'json' ? ['keys=['] : format === 'xml' ? ['<?xml version="1.0" encoding="UTF-8"?><keys>'] : [];
  const close = format === 'json' ? [']'] : format === 'xml' ? ['</keys>'] : [];
  return between(open, formatPages(keys, -1, (stored, first) => {
    const key = convert(stored);
    if (format === 'xml') return [`<key>${escapeXml(key.toString('utf8'))}</key>`];
    const separator = first ? '' : format === 'json' ? ',' : '\n';
    return [separator + (format === 'hex' ? encodeHex(key) : key.toString('utf8'))];
  }), close);
}

/** Chunks of text in `charset`; a byte order mark, what it writes for no text, leads the first chunk only. */
async function* encoded(chunks: AsyncIterable<string>, charset: Charset): AsyncGenerator<Buffer> {
  const mark = charset.encode('').length;
  let first = true;
  for await (const chunk of chunks) {
    const bytes = charset.encode(chunk);
    yield first ? bytes : bytes.subarray(mark);
    first = false;
  }
}

async function* prepend<T>(first: T, rest: AsyncIterator<T>): AsyncGenerator<T> {
  yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

async function clear(ctx: GridContext, s: Services): Promise<void> {
  await s.caches.clear(ctx.state.cache);
  sendStatus(ctx, 200);
}
