export interface SseEvent {
  event: string;
  data: string;
}

/** An event with the stream's last event id when it was dispatched (its own `id:`, or the one before). */
export interface SseEventWithId extends SseEvent {
  id: string;
}

/** An event as it came over the wire: its lines, without the blank line that ends it. */
export type SseBlock = string[];

/**
 * An open server-sent event stream read with fetch; `next(n)` waits for n more events. It reads as
 * a browser's EventSource does: a block without `data:` lines is no event, but its `id:` still
 * becomes the last event id.
 */
export class SseReader {
  private buffer = '';
  private readonly events: SseEventWithId[] = [];
  /** The id a browser would send as `Last-Event-ID` if the stream broke now. */
  lastEventId = '';
  /** Every event block received so far, comments left out, for tests of the wire form. */
  readonly blocks: SseBlock[] = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  private constructor(readonly response: Response, private readonly abort: AbortController) {
    this.reader = response.body!.getReader();
  }

  /** The next `count` events, each with the last event id in force when it came. */
  async nextWithIds(count: number, timeoutMs = 5000): Promise<SseEventWithId[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < count) await this.read(count, deadline);
    return this.events.splice(0, count);
  }

  static async open(url: string, headers: Record<string, string>): Promise<SseReader> {
    const abort = new AbortController();
    const response = await fetch(url, { headers, signal: abort.signal });
    return new SseReader(response, abort);
  }

  async next(count: number, timeoutMs = 5000): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < count) await this.read(count, deadline);
    return this.events.splice(0, count).map(({ event, data }) => ({ event, data }));
  }

  /**
   * Reads until `until` says the blocks received so far are enough (events are still parsed and
   * kept for `next`): for frames that are no events, such as an `id:` alone.
   */
  async waitFor(until: () => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!until()) await this.read(Infinity, deadline);
  }

  private async read(count: number, deadline: number): Promise<void> {
    if (Date.now() > deadline) throw new Error(`expected ${count} events, got ${JSON.stringify(this.events)}`);
    let timer: NodeJS.Timeout | undefined;
    const chunk = await Promise.race([
      this.reader.read(),
      new Promise<{ done: true; value: undefined }>((r) => { timer = setTimeout(() => r({ done: true, value: undefined }), Math.max(deadline - Date.now(), 1)); }),
    ]);
    clearTimeout(timer);
    if (chunk.done && chunk.value === undefined && Date.now() <= deadline) throw new Error('stream ended');
    if (chunk.value) this.parse(this.decoder.decode(chunk.value, { stream: true }));
  }

  /**
   * Reads on until the stream ends: 'end' when the server ended the response properly, 'error'
   * when the connection broke off (a reset, a forced close), 'timeout' when it stays open.
   */
  async ending(timeoutMs = 10_000): Promise<'end' | 'error' | 'timeout'> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return 'timeout';
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        this.reader.read().then((r) => r, () => 'error' as const),
        new Promise<'timeout'>((r) => { timer = setTimeout(() => r('timeout'), left); }),
      ]);
      clearTimeout(timer);
      if (chunk === 'error' || chunk === 'timeout') return chunk;
      if (chunk.done) return 'end';
      this.parse(this.decoder.decode(chunk.value, { stream: true }));
    }
  }

  close(): void {
    this.abort.abort();
  }

  private parse(text: string): void {
    this.buffer += text;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const lines = block.split('\n').filter((l) => !l.startsWith(':'));
      if (lines.length === 0) continue;
      this.blocks.push(lines);
      const id = lines.find((l) => l.startsWith('id: '));
      if (id !== undefined) this.lastEventId = id.slice(4);
      const dataLines = lines.filter((l) => l.startsWith('data: '));
      if (dataLines.length === 0) continue;
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      this.events.push({ event, data: dataLines.map((l) => l.slice(6)).join('\n'), id: this.lastEventId });
    }
  }
}
