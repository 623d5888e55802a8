import { PassThrough } from 'node:stream';
import type { GridContext } from './route-spec';

const KEEP_ALIVE_MS = 30_000;
/** A client that stops reading is dropped before its backlog passes this (writers never wait). */
const MAX_BACKLOG = 1024 * 1024;
/** Events written in one turn are gathered into writes of about this many characters. */
const WRITE_CHARS = 16 * 1024;

export interface EventStream {
  /** An event; with `id`, the place a client resumes after (`Last-Event-ID`). */
  send(event: string, data: string, id?: string): void;
  /** An `id:` alone: it moves the client's last event id without an event (browsers dispatch none). */
  sendId(id: string): void;
  /** Resolves once the client has read what was sent (the stream's buffer is below its mark), or the stream is closed. */
  drained(): Promise<void>;
  close(): void;
  /** Runs when the client goes away or the stream is dropped. */
  onClose(fn: () => void): void;
}

/**
 * The payload's lines as the original splits them (Java's `split("\n")`): trailing empty lines
 * dropped, so a document ending with a newline (YAML) gets no empty last `data:` line; an empty
 * payload is still one empty line.
 */
export function dataLines(data: string): string[] {
  const lines = data.split('\n');
  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  return end === 0 && data === '' ? [''] : lines.slice(0, end);
}

/**
 * Server-sent events (docs/reference/http.md#server-sent-events): `event:`, `id:` when the stream
 * has ids, then one `data:` line per line of the payload (`dataLines`) and a blank line; comment
 * lines keep idle connections open. The stream
 * ends (cleanly, so the client sees the end rather than a reset) when its client goes away, when
 * it is dropped, or when one of `endings` is told: the server closing, the stream's container
 * shutting down.
 */
export function openEventStream(ctx: GridContext, endings: ReadonlyArray<(close: () => void) => () => void>): EventStream {
  // refused (429/503 with the reason) before anything is sent when the user or server is at its cap
  const release = ctx.state.guards.openStream({ tenant: ctx.state.tenant, user: ctx.state.subject.name });
  const stream = new PassThrough();
  const closers: Array<() => void> = [release];
  const drainWaiters = new Set<() => void>();
  let closed = false;
  // one write per event cost a chunk on the wire each: 200,000 keys of a current state took 16 s
  let pending = '';
  let flushing = false;
  const flush = () => {
    flushing = false;
    if (pending === '') return;
    stream.write(pending);
    pending = '';
  };
  const write = (text: string) => {
    pending += text;
    if (pending.length >= WRITE_CHARS) flush();
    else if (!flushing) {
      flushing = true;
      setImmediate(() => { if (!closed) flush(); });
    }
  };
  const close = () => {
    if (closed) return;
    flush();
    closed = true;
    clearInterval(keepAlive);
    for (const fn of closers) fn();
    for (const fn of drainWaiters) fn();
    drainWaiters.clear();
    stream.end();
  };
  stream.on('drain', () => {
    for (const fn of drainWaiters) fn();
    drainWaiters.clear();
  });
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();
  ctx.req.once('close', close);
  ctx.res.once('close', close);
  for (const ending of endings) closers.push(ending(close));
  ctx.status = 200;
  ctx.set('Content-Type', 'text/event-stream');
  ctx.set('Cache-Control', 'no-cache');
  if (ctx.req.httpVersionMajor < 2) ctx.set('Connection', 'keep-alive'); // HTTP/2 forbids connection headers
  ctx.body = stream;
  stream.write(':\n\n'); // a comment, so the status and headers leave at once
  return {
    send(event, data, id) {
      if (closed) return;
      if (stream.writableLength + pending.length > MAX_BACKLOG) return close();
      write(`event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}${dataLines(data).map((l) => `data: ${l}\n`).join('')}\n`);
    },
    sendId(id) {
      if (!closed) write(`id: ${id}\n\n`);
    },
    drained() {
      if (closed || !stream.writableNeedDrain) return Promise.resolve();
      return new Promise((resolve) => drainWaiters.add(resolve));
    },
    close,
    onClose(fn) {
      if (closed) fn();
      else closers.push(fn);
    },
  };
}
