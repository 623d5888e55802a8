import type { Commit, Store, WriteOp } from '../store/store';
import type { CacheEntry } from './cache-entry';
import type { MemoryTier } from './memory-tier';

/** A write not yet committed to the store: an entry, or `null` for a removal. */
export interface Inflight {
  entry: CacheEntry | null;
  commit: Commit;
}

/**
 * One cache's store writes that are not committed yet, by key, and the clear under way: reads
 * look here first, so they never go around a pending write to an older store row. A commit that
 * completes takes its records along; one that fails also drops from memory what memory holds of
 * it, so memory never shows what the store could not keep.
 */
export class InflightWrites {
  private readonly byId = new Map<string, Inflight>();
  private readonly commitIds = new Map<Commit, string[]>();
  private clearing: Commit | undefined;

  constructor(private readonly store: Store, private readonly memory: MemoryTier) {}

  /** The pending write of the key with this memory id. */
  get(id: string): Inflight | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** A clear of the store is not committed yet: until it is, the store's rows are not the cache's. */
  get clearPending(): boolean {
    return this.clearing !== undefined && !this.clearing.done;
  }

  /** The commit a read of the key must wait for, if the key's last write is not yet durable. */
  pendingCommit(id: string): Commit | undefined {
    const c = this.byId.get(id)?.commit;
    return c && !c.done ? c : undefined;
  }

  /** Writes `op`, the change of one key (`entry`, or null for a removal), remembered until committed. */
  write(id: string, op: WriteOp, entry: CacheEntry | null): Commit {
    const commit = this.store.write(op);
    this.byId.set(id, { entry, commit });
    this.track(commit).push(id);
    return commit;
  }

  /** Writes `op`, a change of no single key (an expiry purge), so that its failure is handled like the others. */
  writeUnkeyed(op: WriteOp): Commit {
    const commit = this.store.write(op);
    this.track(commit);
    return commit;
  }

  /** Memory was emptied: the pending writes of its entries are no longer the cache's to wait for. */
  forgetAll(): void {
    this.byId.clear();
  }

  /** Writes the clear of the cache's rows: until it commits, no read goes to the store. */
  writeClear(op: WriteOp): Commit {
    const commit = this.writeUnkeyed(op);
    this.clearing = commit;
    return commit;
  }

  /** Registers once per commit what to do when it completes or fails. */
  private track(commit: Commit): string[] {
    let ids = this.commitIds.get(commit);
    if (ids) return ids;
    const tracked: string[] = [];
    this.commitIds.set(commit, tracked);
    commit.promise.then(() => this.settle(commit, false), () => this.settle(commit, true));
    return tracked;
  }

  /** After a commit: forget its records; if it failed, drop what memory holds of it. */
  private settle(commit: Commit, failed: boolean): void {
    for (const id of this.commitIds.get(commit) ?? []) {
      if (this.byId.get(id)?.commit !== commit) continue;
      this.byId.delete(id);
      if (failed) this.memory.delete(id);
    }
    this.commitIds.delete(commit);
    if (this.clearing === commit) {
      this.clearing = undefined;
      if (failed) this.memory.clear();
    }
  }
}
