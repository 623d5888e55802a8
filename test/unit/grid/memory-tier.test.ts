import { expect } from 'chai';
import fc from 'fast-check';
import type { CacheEntry } from '../../../src/grid/cache-entry';
import { entrySize } from '../../../src/model/stored-entry';
import { MemoryTier } from '../../../src/grid/memory-tier';

function entry(id: string, valueBytes = 1): CacheEntry {
  return { key: Buffer.from(id), value: Buffer.alloc(valueBytes), valueType: null, created: 0, lastUsed: 0, lifespan: -1, maxIdle: -1, etag: id };
}

const ids = (entries: CacheEntry[]) => entries.map((e) => e.key.toString());
const held = (tier: MemoryTier) => [...tier.entries()].map(([id]) => id);

/** The reference: an array in recency order (least recently used first). */
class ModelLru {
  order: Array<{ id: string; size: number }> = [];
  constructor(public maxCount: number, public maxSize: number) {}
  private bytes() { return this.order.reduce((n, x) => n + x.size, 0); }
  private over() { return (this.maxCount >= 0 && this.order.length > this.maxCount) || (this.maxSize >= 0 && this.bytes() > this.maxSize); }
  get(id: string) {
    const i = this.order.findIndex((x) => x.id === id);
    if (i < 0) return false;
    if (this.maxCount >= 0 || this.maxSize >= 0) this.order.push(...this.order.splice(i, 1));
    return true;
  }
  set(id: string, size: number): string[] {
    const i = this.order.findIndex((x) => x.id === id);
    if (i >= 0) this.order.splice(i, 1);
    if (this.maxSize >= 0 && size > this.maxSize) return [id]; // heavier than the tier: evicted itself
    this.order.push({ id, size });
    return this.evict(id);
  }
  delete(id: string) { this.order = this.order.filter((x) => x.id !== id); }
  evict(keep?: string): string[] {
    const out: string[] = [];
    while (this.over()) {
      const victim = this.order.find((x) => x.id !== keep);
      if (!victim || victim.id === keep || this.order[0].id === keep) break;
      this.order.splice(this.order.indexOf(victim), 1);
      out.push(victim.id);
    }
    return out;
  }
}

describe('MemoryTier', () => {
  it('evicts the least recently used entry past max-count; a read makes an entry recent', () => {
    const tier = new MemoryTier({ maxCount: 3, maxSize: -1 });
    for (const id of ['a', 'b', 'c']) expect(tier.set(id, entry(id))).to.deep.equal([]);
    tier.get('a');
    expect(ids(tier.set('d', entry('d')))).to.deep.equal(['b']);
    expect(ids(tier.set('e', entry('e')))).to.deep.equal(['c']);
    expect(held(tier)).to.deep.equal(['a', 'd', 'e']);
  });

  it('evicts by bytes past max-size, never the entry just stored unless it alone is heavier than the tier', () => {
    const size = entrySize(entry('a', 10));
    const tier = new MemoryTier({ maxCount: -1, maxSize: 2 * size });
    tier.set('a', entry('a', 10));
    tier.set('b', entry('b', 10));
    expect(ids(tier.set('c', entry('c', 10)))).to.deep.equal(['a']);
    // heavier than the whole tier: evicted at once, the others kept (the original's Caffeine does so)
    expect(ids(tier.set('big', entry('big', 10 * size)))).to.deep.equal(['big']);
    expect(held(tier)).to.deep.equal(['b', 'c']);
    expect(tier.usedBytes).to.equal(2 * entrySize(entry('b', 10)));
    // a mortal entry evicted that way leaves no trace in the count of entries that can expire
    const mortal = { ...entry('m', 10 * size), lifespan: 1000 };
    expect(ids(tier.set('m', mortal))).to.deep.equal(['m']);
    expect(tier.mortalCount).to.equal(0);
  });

  it('evicts at once when the limit is lowered, and keeps evicting in order afterwards', () => {
    const tier = new MemoryTier({ maxCount: 5, maxSize: -1 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) tier.set(id, entry(id));
    expect(ids(tier.setLimits({ maxCount: 2, maxSize: -1 }))).to.deep.equal(['a', 'b', 'c']);
    expect(ids(tier.set('f', entry('f')))).to.deep.equal(['d']);
  });

  it('replaces an entry of an unbounded tier in place and never evicts', () => {
    const tier = new MemoryTier({ maxCount: -1, maxSize: -1 });
    tier.set('a', entry('a'));
    tier.set('b', entry('b'));
    tier.set('a', entry('a', 5));
    expect(held(tier)).to.deep.equal(['a', 'b']);
    expect(tier.usedBytes).to.equal(entrySize(entry('a', 5)) + entrySize(entry('b')));
  });

  it('behaves as a reference LRU over any sequence of reads, writes, removals and limit changes', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('get' as const), id: fc.integer({ min: 0, max: 20 }) }),
      fc.record({ kind: fc.constant('set' as const), id: fc.integer({ min: 0, max: 20 }), size: fc.integer({ min: 0, max: 50 }) }),
      fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 0, max: 20 }) }),
      fc.record({ kind: fc.constant('clear' as const) }),
      fc.record({ kind: fc.constant('limit' as const), count: fc.integer({ min: 1, max: 12 }) }),
    );
    fc.assert(fc.property(fc.boolean(), fc.integer({ min: 1, max: 12 }), fc.array(op, { maxLength: 300 }), (bySize, limit, ops) => {
      const limits = (n: number) => (bySize ? { maxCount: -1, maxSize: n * 100 } : { maxCount: n, maxSize: -1 });
      const tier = new MemoryTier(limits(limit));
      const model = new ModelLru(limits(limit).maxCount, limits(limit).maxSize);
      for (const o of ops) {
        if (o.kind === 'get') expect(tier.get(`k${o.id}`) !== undefined).to.equal(model.get(`k${o.id}`));
        if (o.kind === 'set') {
          const e = entry(`k${o.id}`, o.size);
          expect(ids(tier.set(`k${o.id}`, e))).to.deep.equal(model.set(`k${o.id}`, entrySize(e)));
        }
        if (o.kind === 'delete') {
          tier.delete(`k${o.id}`);
          model.delete(`k${o.id}`);
        }
        if (o.kind === 'clear') {
          tier.clear();
          model.order = [];
        }
        if (o.kind === 'limit') {
          const l = limits(o.count);
          model.maxCount = l.maxCount;
          model.maxSize = l.maxSize;
          expect(ids(tier.setLimits(l))).to.deep.equal(model.evict());
        }
        expect(held(tier)).to.deep.equal(model.order.map((x) => x.id));
      }
    }), { numRuns: 300 });
  });

  it('counts the entries that can expire through writes, replacements, evictions, removals and clear', () => {
    const tier = new MemoryTier({ maxCount: 2, maxSize: -1 });
    const mortal = (id: string): CacheEntry => ({ ...entry(id), lifespan: 1000 });
    tier.set('a', mortal('a'));
    tier.set('b', entry('b'));
    expect(tier.mortalCount).to.equal(1);
    tier.set('a', entry('a')); // replaced by an immortal one
    expect(tier.mortalCount).to.equal(0);
    tier.set('c', mortal('c'));
    tier.set('d', mortal('d')); // evicts b, then a
    expect(tier.mortalCount).to.equal(2);
    tier.delete('c');
    expect(tier.mortalCount).to.equal(1);
    tier.clear();
    expect(tier.mortalCount).to.equal(0);
  });
});
