import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import {
  DEFAULT_MAX_FRAME_SIZE, encodeFrame, encodeHeaderBlock, encodeHeadersFrames, FRAME_HEADER_LENGTH, FrameType, PREFACE, readFrameHeader,
} from './h2-frames';
import { unread } from './unread';

/** Node refuses SETTINGS frames with more entries than this (its `maxSettings` default). */
const MAX_SETTINGS_BYTES = 6 * 32;
/** How long the client may take to send its connection preface after our 101. */
const PREFACE_TIMEOUT_MS = 10_000;
/** Connection-specific fields (RFC 9113 §8.2.2) never carried into HTTP/2; `host` becomes `:authority`. */
const NOT_FORWARDED = new Set(['connection', 'upgrade', 'http2-settings', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'host']);

/**
 * An HTTP/1.1 request that may be switched to HTTP/2 (RFC 7540 §3.2): `Connection: Upgrade,
 * HTTP2-Settings`, `Upgrade: h2c`, exactly one valid `HTTP2-Settings`, and no body — a body would
 * arrive as HTTP/1.1 bytes and count against flow-control windows the client never saw, so such
 * requests are answered over HTTP/1.1, which the RFC allows ("a server MAY ignore Upgrade").
 * `undefined`: answer the request over HTTP/1.1.
 */
export function h2cSettingsOf(req: IncomingMessage): Buffer | undefined {
  if (req.httpVersion !== '1.1' || req.method === 'CONNECT') return undefined;
  if (!tokens(req.headers.upgrade).includes('h2c')) return undefined;
  if (!tokens(req.headers.connection).includes('http2-settings')) return undefined;
  if (req.headers['transfer-encoding'] !== undefined || req.headers.expect !== undefined) return undefined;
  if (Number(req.headers['content-length'] ?? 0) !== 0) return undefined;
  const values = rawValues(req, 'http2-settings');
  if (values.length !== 1 || !/^[A-Za-z0-9_-]*={0,2}$/.test(values[0])) return undefined;
  const settings = Buffer.from(values[0], 'base64url');
  return settings.length % 6 === 0 && settings.length <= MAX_SETTINGS_BYTES ? settings : undefined;
}

/**
 * Answers 101, waits for the client's preface, then hands the socket to the HTTP/2 server with
 * the upgraded request placed on stream 1, as if the client had sent it there:
 *
 *   client:  PRI…SM  SETTINGS(client's)                         rest…
 *   server:  PRI…SM  SETTINGS(HTTP2-Settings + client's)  HEADERS(1, END_STREAM)  rest…
 *
 * Node's HTTP/2 module has no public server-side upgrade (nghttp2_session_upgrade2 is not
 * exposed); it does read bytes already buffered on a socket it is given, so the rewritten preface
 * is unshifted into the socket before `connection` is emitted. Merging HTTP2-Settings into the
 * client's first SETTINGS frame applies them first (RFC 7540 §3.2.1) with no extra SETTINGS ACK,
 * which the client would take as a protocol error.
 */
export function switchToH2c(req: IncomingMessage, socket: Socket, head: Buffer, settings: Buffer, serveH2: (socket: Socket) => void): void {
  const stream1 = encodeHeadersFrames(1, encodeHeaderBlock(requestFields(req)), true, DEFAULT_MAX_FRAME_SIZE);
  socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n');
  let received: Buffer = Buffer.alloc(0);
  const giveUp = () => socket.destroy();
  const timer = setTimeout(giveUp, PREFACE_TIMEOUT_MS);
  const done = () => {
    clearTimeout(timer);
    socket.removeListener('data', onData);
    socket.removeListener('error', giveUp);
  };
  const onData = (chunk: Buffer) => {
    received = received.length ? Buffer.concat([received, chunk]) : chunk;
    const preface = readPreface(received);
    if (preface === 'wait') return;
    done();
    if (preface === 'bad') return giveUp();
    const merged = encodeFrame(FrameType.SETTINGS, 0, 0, Buffer.concat([settings, preface.settings]));
    unread(socket, Buffer.concat([PREFACE, merged, ...stream1, preface.rest]));
    serveH2(socket);
  };
  socket.on('error', giveUp);
  socket.on('data', onData);
  if (head.length) onData(head);
}

/** The client preface at the start of `buf`: the magic, then a SETTINGS frame (RFC 9113 §3.4). */
function readPreface(buf: Buffer): 'wait' | 'bad' | { settings: Buffer; rest: Buffer } {
  const magic = buf.subarray(0, PREFACE.length);
  if (!PREFACE.subarray(0, magic.length).equals(magic)) return 'bad';
  if (buf.length < PREFACE.length + FRAME_HEADER_LENGTH) return 'wait';
  const frame = readFrameHeader(buf, PREFACE.length);
  const validSettings = frame.type === FrameType.SETTINGS && frame.streamId === 0 && (frame.flags & 0x1) === 0
    && frame.length % 6 === 0 && frame.length <= MAX_SETTINGS_BYTES;
  if (!validSettings) return 'bad';
  const end = PREFACE.length + FRAME_HEADER_LENGTH + frame.length;
  if (buf.length < end) return 'wait';
  return { settings: buf.subarray(PREFACE.length + FRAME_HEADER_LENGTH, end), rest: buf.subarray(end) };
}

/** The request's pseudo-header and regular fields as HTTP/2 carries them (RFC 9113 §8.3.1). */
function requestFields(req: IncomingMessage): Array<[string, string]> {
  const fields: Array<[string, string]> = [[':method', req.method ?? 'GET'], [':scheme', 'http'], [':path', req.url ?? '/']];
  if (req.headers.host) fields.push([':authority', req.headers.host]);
  const connectionOptions = new Set(tokens(req.headers.connection));
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    const value = req.rawHeaders[i + 1];
    if (NOT_FORWARDED.has(name) || connectionOptions.has(name)) continue;
    if (name === 'te' && value.trim().toLowerCase() !== 'trailers') continue;
    fields.push([name, value]);
  }
  return fields;
}

/**
 * The request's head again, without `Upgrade` and `HTTP2-Settings` and without those options in
 * `Connection`: what the HTTP/1.1 parser reads when an upgrade is declined, followed by whatever
 * the client sent after the head (its body, further requests).
 */
export function headWithoutUpgrade(req: IncomingMessage, rest: Buffer): Buffer {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    if (name === 'upgrade' || name === 'http2-settings') continue;
    if (name === 'connection') {
      const kept = tokens(req.rawHeaders[i + 1]).filter((t) => t !== 'upgrade' && t !== 'http2-settings');
      if (kept.length) lines.push(`Connection: ${kept.join(', ')}`);
      continue;
    }
    lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  }
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), rest]);
}

function tokens(value: string | string[] | undefined): string[] {
  const text = Array.isArray(value) ? value.join(',') : value ?? '';
  return text.split(',').map((t) => t.trim().toLowerCase()).filter((t) => t !== '');
}

function rawValues(req: IncomingMessage, name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === name) out.push(req.rawHeaders[i + 1]);
  return out;
}
