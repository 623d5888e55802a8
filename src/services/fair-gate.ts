/**
 * At most `slots` tasks run at once; the others wait in one queue per key and take turns (round
 * robin), so a flood under one key cannot starve the rest. Each key may keep `perKey` tasks
 * waiting and all keys together `total`; beyond that a task is refused at once.
 */
export class FairGate {
  private running = 0;
  private waitingCount = 0;
  /** Keys in turn order; a key goes to the back after each turn. */
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly slots: number, private readonly perKey: number, private readonly total: number) {}

  /** Runs `task` in its turn; undefined (synchronously) when the queue is full. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> | undefined {
    if (this.running < this.slots && this.waitingCount === 0) {
      this.running++;
      return this.runNow(task);
    }
    const queue = this.waiting.get(key) ?? [];
    if (queue.length >= this.perKey || this.waitingCount >= this.total) return undefined;
    if (!queue.length) this.waiting.set(key, queue);
    this.waitingCount++;
    return new Promise<void>((resolve) => queue.push(resolve)).then(() => this.runNow(task));
  }

  private async runNow<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } finally {
      this.running--;
      this.next();
    }
  }

  private next(): void {
    const first = this.waiting.entries().next();
    if (first.done) return;
    const [key, queue] = first.value;
    this.waiting.delete(key);
    const resolve = queue.shift()!;
    if (queue.length) this.waiting.set(key, queue);
    this.waitingCount--;
    this.running++;
    resolve();
  }
}
