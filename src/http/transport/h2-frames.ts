/**
 * The few HTTP/2 wire pieces grid writes itself (RFC 9113 §3.4, §4.1, §6; RFC 7541 §5–§6), used
 * to hand an upgraded `Upgrade: h2c` request to Node's HTTP/2 server as if the client had sent it
 * on stream 1. Nothing here parses client frames beyond the 9-byte frame header.
 */

/** The client connection preface: `PRI * HTTP/2.0` followed by `SM`. */
export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
export const FRAME_HEADER_LENGTH = 9;
/** SETTINGS_MAX_FRAME_SIZE's initial value: every peer accepts frames this large. */
export const DEFAULT_MAX_FRAME_SIZE = 16_384;

export const FrameType = { DATA: 0, HEADERS: 1, RST_STREAM: 3, SETTINGS: 4, CONTINUATION: 9 } as const;
export const FrameFlag = { END_STREAM: 0x1, END_HEADERS: 0x4 } as const;

export interface FrameHeader {
  length: number;
  type: number;
  flags: number;
  streamId: number;
}

export function readFrameHeader(buf: Buffer, offset = 0): FrameHeader {
  return {
    length: buf.readUIntBE(offset, 3),
    type: buf[offset + 3],
    flags: buf[offset + 4],
    streamId: buf.readUInt32BE(offset + 5) & 0x7fffffff,
  };
}

export function encodeFrame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(FRAME_HEADER_LENGTH);
  header.writeUIntBE(payload.length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(streamId & 0x7fffffff, 5);
  return Buffer.concat([header, payload]);
}

/**
 * A header block of literal fields without indexing and without Huffman coding (RFC 7541 §6.2.2):
 * valid for any decoder and leaves both dynamic tables untouched.
 */
export function encodeHeaderBlock(fields: ReadonlyArray<readonly [string, string]>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    const n = Buffer.from(name, 'latin1');
    const v = Buffer.from(value, 'latin1');
    parts.push(Buffer.from([0x00]), encodeInteger(n.length, 7), n, encodeInteger(v.length, 7), v);
  }
  return Buffer.concat(parts);
}

/** An HPACK integer with an N-bit prefix (RFC 7541 §5.1); the first byte's other bits are 0. */
export function encodeInteger(value: number, prefixBits: number): Buffer {
  const max = (1 << prefixBits) - 1;
  if (value < max) return Buffer.from([value]);
  const bytes = [max];
  let rest = value - max;
  while (rest >= 128) {
    bytes.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** HEADERS then as many CONTINUATION frames as the block needs. */
export function encodeHeadersFrames(streamId: number, block: Buffer, endStream: boolean, maxFrameSize = DEFAULT_MAX_FRAME_SIZE): Buffer[] {
  const frames: Buffer[] = [];
  for (let at = 0; at === 0 || at < block.length; at += maxFrameSize) {
    const piece = block.subarray(at, at + maxFrameSize);
    const last = at + maxFrameSize >= block.length;
    const type = at === 0 ? FrameType.HEADERS : FrameType.CONTINUATION;
    const flags = (last ? FrameFlag.END_HEADERS : 0) | (at === 0 && endStream ? FrameFlag.END_STREAM : 0);
    frames.push(encodeFrame(type, flags, streamId, piece));
  }
  return frames;
}
