import { CacheNotFoundError } from '../../errors';
import type { CacheHandle, CacheManager } from '../../grid/cache-manager';
import { resolveExpiry } from '../../model/expiration';
import { LEGACY_KEY_TYPE, toStoredKey } from '../../model/media/key-codec';
import { essence, JAVA_OBJECT } from '../../model/media/media-type';
import { NO_TYPES } from '../../model/protobuf/protostream-json';
import type { Permission } from '../../model/security/permissions';
import { NO_FLAGS } from '../../model/flags';
import type { Subject } from '../auth/auth.service';
import { cacheMask, canAccess, requirePermission } from '../auth/authorization';
import { viewOf } from '../cache-view';
import { storageTypesOf } from '../storage-types';

/**
 * The host side of a script's `cache` and `cacheManager`: String keys and values (UTF-8), the
 * caller's permissions on each cache, and every write remembered so the task answers only once
 * they are all durable. The script goes on while a write is on its way, but what it does next
 * with that key waits for it: a read sees the write, a second write comes after it (on an engine
 * whose writes travel over several connections, two writes of one key could otherwise pass each
 * other), and `size` counts every write made before it.
 */
export class ScriptBindings {
  /** Writes not yet acknowledged: the script goes on, its task answers once they all are. */
  private readonly writes: Array<Promise<unknown>> = [];
  /** The last write of each key still on its way, by cache and key. */
  private readonly lastWrite = new Map<string, Promise<unknown>>();

  constructor(private readonly manager: CacheManager, private readonly subject: Subject) {}

  /** One entry point for every binding: `op` and its string arguments, answered with JSON text. */
  readonly call = async (op: string, args: string[]): Promise<string | undefined> => {
    switch (op) {
      case 'cacheNames': return JSON.stringify(this.cacheNames());
      case 'checkCache': this.handle(args[0], 'READ'); return undefined;
      case 'get': return this.get(args[0], args[1]);
      case 'containsKey': return JSON.stringify((await this.get(args[0], args[1])) !== undefined);
      case 'put': return this.put(args[0], args[1], args[2]);
      case 'remove': return this.remove(args[0], args[1]);
      case 'size': return this.size(args[0]);
      default: throw new Error(`unknown binding '${op}'`);
    }
  };

  /** Waits until every write the script made is durable (or failed). */
  async settled(): Promise<void> {
    const failed = (await Promise.allSettled(this.writes)).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** `getCacheNames()`: user caches the caller holds at least one permission on. */
  private cacheNames(): string[] {
    return this.manager.handles().map(viewOf).filter((c) => !c.internal && canAccess(this.subject, c)).map((c) => c.name);
  }

  private handle(name: string, permission: Permission): CacheHandle {
    const h = this.manager.find(name);
    // a cache the caller holds no permission on is, as in getCacheNames(), not there
    if (!h || h.internal || !canAccess(this.subject, viewOf(h))) throw new CacheNotFoundError(name);
    requirePermission(this.subject, cacheMask(this.subject, viewOf(h)), permission);
    return h;
  }

  /** A read never sees a write that is not yet durable: it waits for that write's commit. */
  private async get(cacheName: string, key: string): Promise<string | undefined> {
    const h = this.handle(cacheName, 'READ');
    const k = storedKey(h, key);
    await this.written(h, k);
    const e = await h.data.get(k, NO_FLAGS);
    return e && JSON.stringify(e.value.toString('utf8'));
  }

  private async put(cacheName: string, key: string, value: string): Promise<string | undefined> {
    const h = this.handle(cacheName, 'WRITE');
    const k = storedKey(h, key);
    await this.written(h, k);
    const previous = await h.data.peek(k, NO_FLAGS);
    this.pending(h, k, h.data.put(k, Buffer.from(value, 'utf8'), valueTypeOf(h), defaultExpiry(h), NO_FLAGS));
    return previous && JSON.stringify(previous.value.toString('utf8'));
  }

  private async remove(cacheName: string, key: string): Promise<string | undefined> {
    const h = this.handle(cacheName, 'WRITE');
    const k = storedKey(h, key);
    await this.written(h, k);
    const removed = await h.data.peek(k, NO_FLAGS);
    if (removed) this.pending(h, k, h.data.remove(k, NO_FLAGS));
    return removed && JSON.stringify(removed.value.toString('utf8'));
  }

  private async size(cacheName: string): Promise<string> {
    const h = this.handle(cacheName, 'BULK_READ');
    await Promise.allSettled(this.writes);
    return String(await h.data.size(NO_FLAGS));
  }

  /** Once the last write of `key` still on its way has been made (or failed: `settled` tells that). */
  private async written(h: CacheHandle, key: Buffer): Promise<void> {
    await this.lastWrite.get(writeId(h, key));
  }

  /** Remembers a write still on its way; its failure is the task's, told by `settled`. */
  private pending(h: CacheHandle, key: Buffer, write: unknown): void {
    if (!(write instanceof Promise)) return;
    const done = write.catch(() => undefined);
    const id = writeId(h, key);
    this.lastWrite.set(id, done);
    void done.then(() => { if (this.lastWrite.get(id) === done) this.lastWrite.delete(id); });
    this.writes.push(write);
  }
}

function writeId(h: CacheHandle, key: Buffer): string {
  return `${h.cache.name}\0${key.toString('latin1')}`;
}

/** A script's key is a Java String, converted to the cache's key storage type as a REST key is. */
function storedKey(h: CacheHandle, key: string): Buffer {
  return toStoredKey(Buffer.from(key, 'utf8'), LEGACY_KEY_TYPE, storageTypesOf(h.cache.settings).key, NO_TYPES);
}

/** Script values are strings: Java Strings in a Java-object cache, UTF-8 text elsewhere. */
function valueTypeOf(h: CacheHandle): string {
  return essence(storageTypesOf(h.cache.settings).value) === JAVA_OBJECT ? `${JAVA_OBJECT}; type=java.lang.String` : 'text/plain; charset=UTF-8';
}

/** The cache's own expiration defaults apply, as for a REST write without expiration headers. */
function defaultExpiry(h: CacheHandle) {
  const s = h.cache.settings;
  return resolveExpiry({ lifespan: s.lifespanMs, maxIdle: s.maxIdleMs }, undefined, undefined);
}
