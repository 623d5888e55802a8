/**
 * The first `limit` rows by an order, kept in a bounded heap so a sorted query over a big cache
 * holds no more than offset + max_results rows. Ties keep arrival order.
 */
export class TopRows<T> {
  private readonly heap: Array<{ row: T; seq: number }> = [];
  private seq = 0;

  constructor(private readonly limit: number, private readonly compare: (a: T, b: T) => number) {}

  /** Offers a row; the row that is not kept — this one, or the one it pushed out — or undefined. */
  add(row: T): T | undefined {
    if (this.limit <= 0) return row;
    const item = { row, seq: this.seq++ };
    if (this.heap.length < this.limit) {
      this.heap.push(item);
      this.up(this.heap.length - 1);
      return undefined;
    }
    if (!this.worse(this.heap[0], item)) return row;
    const out = this.heap[0].row;
    this.heap[0] = item;
    this.down(0);
    return out;
  }

  /** The kept rows, best first. */
  sorted(): T[] {
    return [...this.heap].sort((a, b) => this.order(a, b)).map((i) => i.row);
  }

  private order(a: { row: T; seq: number }, b: { row: T; seq: number }): number {
    return this.compare(a.row, b.row) || a.seq - b.seq;
  }

  /** The heap keeps the worst row on top. */
  private worse(a: { row: T; seq: number }, b: { row: T; seq: number }): boolean {
    return this.order(a, b) > 0;
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(h[i], h[parent])) return;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < h.length && this.worse(h[l], h[top])) top = l;
      if (r < h.length && this.worse(h[r], h[top])) top = r;
      if (top === i) return;
      [h[i], h[top]] = [h[top], h[i]];
      i = top;
    }
  }
}
