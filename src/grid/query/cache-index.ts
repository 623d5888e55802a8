import type { Type } from 'protobufjs';
import { IndexedEntityError } from '../../errors';
import type { EntityModel } from '../../model/ickle/entity-model';
import { entityModelOf } from '../../model/ickle/entity-model';
import type { ProtobufTypes } from '../../model/protobuf/protostream-json';
import { wrappedMessageOf } from '../../model/protobuf/wrapped-message';
import { type Commit, expiresAt, type IndexStore, type IndexWriteOp, type StoredEntry } from '../../store/store';
import type { Pages } from '../../util/pages';
import type { Cache } from '../cache';
import type { MaybePromise } from '../cache-data';
import type { CacheEntry } from '../cache-entry';
import type { ContentChange, ContentIndex } from '../content-index';
import { idOf } from '../memory-tier';
import { byDeadline, type Deadline } from './deadline';
import { toIndexDocument } from './index-documents';
import type { QuerySettings } from './query-settings';
import { TimeSlice } from './time-slice';

// loaded on first use, as elsewhere
let pbModule: typeof import('protobufjs') | undefined;
const pb = (): typeof import('protobufjs') => (pbModule ??= require('protobufjs') as typeof import('protobufjs'));

/** Where a cache's index lives: the store's tables (persistent caches) or the in-memory ones. */
export interface IndexTarget {
  reads: IndexStore;
  /** Applies or queues a change; persistent targets return the group commit it joins. */
  write(op: IndexWriteOp): Commit | undefined;
}

/** What an index reads of its cache's entries: all of them (a rebuild), and those of a query's hits. */
export interface IndexedContent {
  /** Every live entry, every write acknowledged before the call included. */
  entries(): Pages<StoredEntry>;
  /** The live entries of `keys`, read without bringing them into memory or refreshing idle times. */
  lookupMany(keys: Buffer[]): MaybePromise<Array<CacheEntry | undefined>>;
  /** Whether only memory holds the key's entry (a passivating cache's, not passivated). */
  heldOnlyInMemory(key: Buffer): boolean;
}

/**
 * How an index learns of changes made through other nodes (the redis engine's `IndexFollower`);
 * absent where every change passes through this node's cache, which tells the index itself.
 */
export interface IndexSync {
  /** Resolves once the index has every change acknowledged before the call, whichever node made it. */
  catchUp(): Promise<void>;
  /** Asks every node's index to rebuild; resolves once this node's has. */
  reindex(): Promise<void>;
  /** Asks every node's index to empty; resolves once this node's has. */
  clear(): Promise<void>;
}

const REINDEX_BATCH = 1000;

/**
 * The index of one indexed cache (docs/reference/query.md#indexing): follows the cache's content, checks its
 * indexed-entities (ISPN028021/ISPN028022), rebuilds on reindex and counts its failures.
 */
export class CacheIndex implements ContentIndex {
  entityIndexingFailures = 0;
  private validated: { version: number | undefined; types: Array<Type | undefined>; entities: EntityModel[] } | undefined;
  private rebuilding: Promise<void> | undefined;
  /** Keys the cache changed while a reindex runs: the reindex leaves them to the live path. */
  private touched: Set<string> | undefined;
  private cleared = false;
  /** Set on the redis engine, where writes come from other nodes too. */
  sync: IndexSync | undefined;

  constructor(readonly cache: Cache, readonly settings: QuerySettings, readonly target: IndexTarget, private readonly types: ProtobufTypes,
    private readonly content: IndexedContent) {}

  get reindexing(): boolean {
    return this.rebuilding !== undefined;
  }

  get reads(): IndexStore {
    return this.target.reads;
  }

  /**
   * Resolves once the index holds every write acknowledged before the call, through whichever node
   * (docs/scale-out.md, "Queries"), or fails with the query's time-out at `deadline`; undefined
   * when there is nothing to wait for (every write passed through this node).
   */
  current(deadline?: Deadline): Promise<void> | undefined {
    if (!this.sync) return undefined;
    const caught = this.sync.catchUp();
    return deadline ? byDeadline(caught, deadline) : caught;
  }

  /** The live entries of a query's hits (stale documents find none). */
  lookupMany(keys: Buffer[]): MaybePromise<Array<CacheEntry | undefined>> {
    return this.content.lookupMany(keys);
  }

  checkPut(): void {
    this.entities();
  }

  apply(change: ContentChange): void {
    if (change.kind === 'passivate' || change.kind === 'activate') {
      // documents written by a reindex too (manual mode included) must know where their entry is
      this.target.write({ kind: 'index.memoryOnly', cacheId: this.cache.id, key: change.key, memoryOnly: change.kind === 'activate' });
      return;
    }
    if (change.kind === 'put') this.entities(); // refuse writes while the configuration cannot be indexed
    if (this.settings.manual) return; // indexing-mode manual: only a reindex writes the index
    if (this.touched) {
      if (change.kind === 'clear') this.cleared = true;
      else if (change.kind !== 'purgeExpired') this.touched.add(idOf(change.kind === 'put' ? change.entry.key : change.key));
    }
    switch (change.kind) {
      case 'put': this.index(change.entry, change.memoryOnly); return;
      case 'remove': this.target.write({ kind: 'index.delete', cacheId: this.cache.id, key: change.key }); return;
      case 'clear': this.target.write({ kind: 'index.clear', cacheId: this.cache.id }); return;
      case 'purgeExpired': this.target.write({ kind: 'index.purgeExpired', cacheId: this.cache.id, now: change.now }); return;
    }
  }

  /**
   * The configured indexed entities, checked lazily as the original does at the first query or
   * write (docs/reference/query.md#indexing-configuration): each must be a registered message type, @Indexed, with an annotated field.
   */
  entities(): EntityModel[] {
    const version = this.types.version;
    if (version !== undefined && this.validated?.version === version) return this.validated.entities;
    const types = this.settings.indexedEntities.map((n) => this.types.find(n) as Type | undefined);
    if (this.validated && types.every((t, i) => t === this.validated!.types[i])) return this.validated.entities;
    const entities = this.settings.indexedEntities.map((name, i) => {
      const t = types[i];
      if (!t) throw new IndexedEntityError(`ISPN028022: The declared indexed type '${name}' is not known. Please register its proto schema file first`);
      const model = t instanceof pb().Type ? entityModelOf(t) : undefined;
      if (!model || !model.indexed || model.annotatedFields === 0) {
        throw new IndexedEntityError(`ISPN028021: The configured indexed-entity type '${name}' must be indexed. Please annotate it with @Indexed and make sure at least one field has some indexing annotation, or remove it from the configuration.`);
      }
      return model;
    });
    this.validated = { version, types, entities };
    return entities;
  }

  /** The registered types changed: the entities checked against the old ones are checked again when next needed. */
  forgetTypes(): void {
    this.validated = undefined;
  }

  /** The indexed entity of this name, or undefined when the cache does not index it. */
  entity(name: string): EntityModel | undefined {
    return this.entities().find((e) => e.name === name);
  }

  /** `?action=clear`: the index emptied, the data kept (every node's, with `sync`). */
  async clear(): Promise<void> {
    this.entities();
    if (this.sync) return this.sync.clear();
    await this.clearHere();
  }

  /** This node's index emptied. */
  async clearHere(): Promise<void> {
    await this.target.write({ kind: 'index.clear', cacheId: this.cache.id })?.promise;
  }

  /** `?action=reindex`: the index rebuilt from the cache's entries, a batch at a time (every node's, with `sync`); joins a running one. */
  reindex(): Promise<void> {
    this.entities();
    return this.sync ? this.sync.reindex() : this.rebuildHere();
  }

  /**
   * This node's index rebuilt from the cache's entries; joins a running rebuild — `again`: one that
   * reads every entry after this call (a running one starts over).
   */
  rebuildHere(again = false): Promise<void> {
    this.entities();
    if (this.rebuilding && again) this.cleared = true;
    this.rebuilding ??= this.rebuild();
    return this.rebuilding;
  }

  private async rebuild(): Promise<void> {
    // the last look at `cleared` and the end of `rebuilding` in one step: a call between them would be lost
    try {
      do {
        this.touched = new Set();
        this.cleared = false;
        let commit = this.target.write({ kind: 'index.clear', cacheId: this.cache.id });
        const slice = new TimeSlice();
        let n = 0;
        pages: for await (const page of this.content.entries()) {
          for (const e of page) {
            if (this.cleared) break pages;
            if (this.touched.has(idOf(e.key))) continue;
            commit = this.index(e, this.content.heldOnlyInMemory(e.key)) ?? commit;
            if (++n % REINDEX_BATCH === 0 && commit) await commit.promise;
            if (slice.due()) await slice.pause();
          }
        }
        if (commit) await commit.promise;
      } while (this.cleared);
    } finally {
      this.rebuilding = undefined;
      this.touched = undefined;
    }
  }

  /** Writes the entry's document, or removes a stale one when the value is not an indexed entity. */
  private index(entry: StoredEntry, memoryOnly: boolean): Commit | undefined {
    const op = this.documentOp(entry, memoryOnly);
    return this.target.write(op);
  }

  private documentOp(entry: StoredEntry, memoryOnly: boolean): IndexWriteOp {
    const remove: IndexWriteOp = { kind: 'index.delete', cacheId: this.cache.id, key: entry.key };
    const wrapped = wrappedMessageOf(entry.value);
    if (!wrapped) return remove;
    const name = typeof wrapped.type === 'number' ? this.types.nameOfTypeId(wrapped.type) : wrapped.type;
    const entity = name === undefined ? undefined : this.entity(name);
    const type = name === undefined ? undefined : this.types.find(name);
    if (!entity || !(type instanceof pb().Type)) return remove;
    try {
      const message = type.decode(wrapped.body);
      return { kind: 'index.put', cacheId: this.cache.id, doc: toIndexDocument(entity, message, entry.key, expiresAt(entry), memoryOnly) };
    } catch {
      this.entityIndexingFailures++;
      return remove;
    }
  }
}
