import type { Type } from 'protobufjs';
import type { EntityModel } from '../../model/ickle/entity-model';
import { compileIckle } from '../../model/ickle/compile';
import { findJavaEntity, findProtobufEntity } from '../../model/ickle/protobuf-entities';
import type { ProtobufTypes } from '../../model/protostream-json';
import type { Cache } from '../cache';
import type { Commit } from '../../store/store';
import { ExecutableQuery } from './executable-query';
import type { Paging, QueryResult } from './query-result';
import type { QuerySettings } from './query-settings';
import { ResultCollector } from './result-collector';
import { scanMatches } from './scan';

/** How a cache's values name their entities: protobuf message types, or Java classes. */
export type EntityNames = 'protobuf' | 'java';

const MEMO_SIZE = 256;
const REMOVE_BATCH = 1000;

/**
 * Runs Ickle queries over caches. A query is parsed, checked and compiled once and remembered
 * (per cache, text and schema version); each run then streams the cache or asks its index.
 */
export class QueryEngine {
  private readonly memo = new Map<string, ExecutableQuery>();

  constructor(private readonly types: ProtobufTypes) {}

  prepare(cache: Cache, settings: QuerySettings, text: string, names: EntityNames): ExecutableQuery {
    const id = `${cache.id}\0${names}\0${settings.indexed}\0${settings.indexedEntities.join(',')}\0${text}`;
    const known = this.memo.get(id);
    if (known && this.types.find(known.query.entity.name) === known.type) {
      this.memo.delete(id);
      this.memo.set(id, known);
      return known;
    }
    const query = compileIckle(text, {
      findEntity: (name) => (names === 'java' ? findJavaEntity(name) : findProtobufEntity(this.types, name)),
      fullTextAvailable: (entity) => this.fullTextAvailable(settings, entity),
    });
    const type = this.types.find(query.entity.name) as Type;
    const exec = new ExecutableQuery(query, type, this.types.typeIdOf(query.entity.name));
    this.memo.set(id, exec);
    if (this.memo.size > MEMO_SIZE) this.memo.delete(this.memo.keys().next().value as string);
    return exec;
  }

  async search(cache: Cache, exec: ExecutableQuery, paging: Paging): Promise<QueryResult> {
    await cache.settled();
    const collector = new ResultCollector(exec, paging);
    await scanMatches(exec, cache.entries(), (row) => collector.add(row));
    return collector.finish('non_indexed');
  }

  /** DELETE FROM …: removes every match through the cache (listeners and indexes follow); the count removed. */
  async remove(cache: Cache, exec: ExecutableQuery): Promise<number> {
    await cache.settled();
    let removed = 0;
    let pending: Commit[] = [];
    const flush = async (): Promise<void> => {
      await Promise.all(pending.map((c) => c.promise));
      pending = [];
    };
    await scanMatches(exec, cache.entries(), async (row) => {
      const { removed: was, commit } = cache.remove(row.key);
      if (was) removed++;
      if (commit && !pending.includes(commit)) pending.push(commit);
      if (pending.length >= REMOVE_BATCH) await flush();
    });
    await flush();
    return removed;
  }

  private fullTextAvailable(settings: QuerySettings, entity: EntityModel): boolean {
    return settings.indexed && entity.indexed && settings.indexedEntities.includes(entity.name);
  }
}
