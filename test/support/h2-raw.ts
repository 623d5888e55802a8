import { connect, type Socket } from 'node:net';
import {
  encodeFrame, encodeHeaderBlock, encodeHeadersFrames, FRAME_HEADER_LENGTH, FrameType, PREFACE, readFrameHeader, type FrameHeader,
} from '../../src/http/transport/h2-frames';

export const GOAWAY = 7;
export const ENHANCE_YOUR_CALM = 11;
export const CANCEL = 8;

export interface ReceivedFrame extends FrameHeader {
  payload: Buffer;
}

/**
 * An HTTP/2 client that writes frames by hand (h2c prior knowledge), for the abuse no well-behaved
 * client library will commit: rapid resets, streams beyond the limit, SETTINGS floods.
 */
export class RawH2Client {
  readonly frames: ReceivedFrame[] = [];
  closed = false;
  private buffer: Buffer = Buffer.alloc(0);

  private constructor(private readonly socket: Socket, private readonly ackSettings: boolean) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => { this.closed = true; });
  }

  /**
   * Connects and sends the preface; SETTINGS from the server are acknowledged as they come, unless
   * `ackSettings` is false (the server's limits then do not bind the client yet, RFC 9113 §6.5.3).
   */
  static open(port: number, { ackSettings = true } = {}): Promise<RawH2Client> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        const client = new RawH2Client(socket, ackSettings);
        socket.write(Buffer.concat([PREFACE, encodeFrame(FrameType.SETTINGS, 0, 0, Buffer.alloc(0))]));
        resolve(client);
      });
      socket.once('error', reject);
    });
  }

  /** HEADERS for a request on `streamId` (odd, increasing). */
  request(streamId: number, method: string, path: string, headers: Record<string, string> = {}, endStream = true): Buffer {
    const fields: Array<[string, string]> = [[':method', method], [':scheme', 'http'], [':path', path], [':authority', 'localhost'], ...Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v] as [string, string])];
    return Buffer.concat(encodeHeadersFrames(streamId, encodeHeaderBlock(fields), endStream));
  }

  reset(streamId: number, code = CANCEL): Buffer {
    const payload = Buffer.alloc(4);
    payload.writeUInt32BE(code);
    return encodeFrame(FrameType.RST_STREAM, 0, streamId, payload);
  }

  settings(): Buffer {
    return encodeFrame(FrameType.SETTINGS, 0, 0, Buffer.alloc(0));
  }

  /** Resolves when the bytes are handed to the kernel (false: the connection is gone). */
  send(bytes: Buffer): Promise<boolean> {
    if (this.closed || this.socket.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => this.socket.write(bytes, (err) => resolve(!err)));
  }

  /** Stops reading what the server sends (its writes back up). */
  stopReading(): void {
    this.socket.pause();
  }

  /** The error code of the GOAWAY received, if any. */
  goawayCode(): number | undefined {
    const goaway = this.frames.find((f) => f.type === GOAWAY);
    return goaway && goaway.payload.readUInt32BE(4);
  }

  resets(code: number): number {
    return this.frames.filter((f) => f.type === FrameType.RST_STREAM && f.payload.readUInt32BE(0) === code).length;
  }

  /** Stream ids the server answered with HEADERS. */
  answered(): Set<number> {
    return new Set(this.frames.filter((f) => f.type === FrameType.HEADERS).map((f) => f.streamId));
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    while (this.buffer.length >= FRAME_HEADER_LENGTH) {
      const header = readFrameHeader(this.buffer);
      const end = FRAME_HEADER_LENGTH + header.length;
      if (this.buffer.length < end) return;
      this.frames.push({ ...header, payload: this.buffer.subarray(FRAME_HEADER_LENGTH, end) });
      if (this.ackSettings && header.type === FrameType.SETTINGS && (header.flags & 0x1) === 0) this.socket.write(encodeFrame(FrameType.SETTINGS, 0x1, 0, Buffer.alloc(0)));
      this.buffer = this.buffer.subarray(end);
    }
  }
}
