/** A set of listeners; `add` returns the function that removes the listener again. */
export class Listeners<T> {
  private readonly fns = new Set<(event: T) => void>();

  /** `onCount` hears how many listeners there are after each add and removal (e.g. to follow a feed only while someone listens). */
  constructor(private readonly onCount?: (size: number) => void) {}

  add(fn: (event: T) => void): () => void {
    this.fns.add(fn);
    this.onCount?.(this.fns.size);
    return () => {
      if (this.fns.delete(fn)) this.onCount?.(this.fns.size);
    };
  }

  get size(): number {
    return this.fns.size;
  }

  emit(event: T): void {
    for (const fn of this.fns) fn(event);
  }
}
