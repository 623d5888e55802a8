export interface SseEvent {
  event: string;
  data: string;
}

/** An event as it came over the wire: its lines, without the blank line that ends it. */
export type SseBlock = string[];

/** An open server-sent event stream read with fetch; `next(n)` waits for n more events. */
export class SseReader {
  private buffer = '';
  private readonly events: SseEvent[] = [];
  /** Every event block received so far, comments left out, for tests of the wire form. */
  readonly blocks: SseBlock[] = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  private constructor(readonly response: Response, private readonly abort: AbortController) {
    this.reader = response.body!.getReader();
  }

  static async open(url: string, headers: Record<string, string>): Promise<SseReader> {
    const abort = new AbortController();
    const response = await fetch(url, { headers, signal: abort.signal });
    return new SseReader(response, abort);
  }

  async next(count: number, timeoutMs = 5000): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} events, got ${JSON.stringify(this.events)}`);
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<{ done: true; value: undefined }>((r) => setTimeout(() => r({ done: true, value: undefined }), Math.max(deadline - Date.now(), 1))),
      ]);
      if (chunk.done && chunk.value === undefined && Date.now() <= deadline) throw new Error('stream ended');
      if (chunk.value) this.parse(this.decoder.decode(chunk.value, { stream: true }));
    }
    return this.events.splice(0, count);
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
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      this.events.push({ event, data });
    }
  }
}
