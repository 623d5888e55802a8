/** A set of listeners; `add` returns the function that removes the listener again. */
export class Listeners<T> {
  private readonly fns = new Set<(event: T) => void>();

  add(fn: (event: T) => void): () => void {
    this.fns.add(fn);
    return () => { this.fns.delete(fn); };
  }

  get size(): number {
    return this.fns.size;
  }

  emit(event: T): void {
    for (const fn of this.fns) fn(event);
  }
}
