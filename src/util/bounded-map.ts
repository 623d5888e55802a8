/**
 * A Map that holds at most `limit` keys: setting a key moves it to the back, and when full the
 * least recently set key goes. For tracking tables a client can grow (failed logins, nonces).
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  /** `onEvict` hears of keys pushed out by the limit (not of deletes). */
  constructor(private readonly limit: number, private readonly onEvict?: (key: K, value: V) => void) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): this {
    this.map.delete(key);
    if (this.map.size >= this.limit) {
      const [oldest, value] = this.map.entries().next().value as [K, V];
      this.map.delete(oldest);
      this.onEvict?.(oldest, value);
    }
    this.map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }
}
