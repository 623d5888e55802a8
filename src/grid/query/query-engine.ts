import type { Type } from 'protobufjs';
import { UnknownEntityError } from '../../errors';
import type { EntityModel } from '../../model/ickle/entity-model';
import { compileIckle } from '../../model/ickle/compile';
import { findJavaEntity, findProtobufEntity } from '../../model/ickle/protobuf-entities';
import type { ProtobufTypes } from '../../model/protobuf/protostream-json';
import { NO_FLAGS } from '../../model/flags';
import type { Clock } from '../../util/clock';
import type { Cache } from '../cache';
import type { CacheData, RemoveOutcome } from '../cache-data';
import type { CacheIndex } from './cache-index';
import { ExecutableQuery } from './executable-query';
import { type EntityLoading, runIndexQuery } from './index-execution';
import type { Indexing } from './indexing';
import { QueryBudget, type QueryLimits } from './query-budget';
import { QueryMemo } from './query-memo';
import type { Paging, QueryResult } from './query-result';
import type { QuerySettings } from './query-settings';
import { QueryStatistics } from './query-stats';
import { ResultCollector } from './result-collector';
import { scanMatches } from './scan';

/** How a cache's values name their entities: protobuf message types, or Java classes. */
export type EntityNames = 'protobuf' | 'java';

const REMOVE_BATCH = 1000;

/**
 * Runs Ickle queries over caches. A query is parsed, checked and compiled once and remembered
 * (per cache, text and schema version, within the memo's byte budget: query-memo.ts); each run
 * then asks the cache's index (indexed or hybrid plan) or streams the cache (scan) within its
 * budget (deadline, answer size, expansion work: the `query-*` limits), and is timed for
 * `search/stats`.
 */
export class QueryEngine {
  private readonly memo = new QueryMemo();
  /** The schema version the memo was filled under: a compiled query holds its type, and through it the whole type tree. */
  private memoVersion: number | undefined;
  private readonly statistics = new Map<number, QueryStatistics>();

  constructor(private readonly types: ProtobufTypes, private readonly indexing: Indexing, private readonly clock: Clock, private readonly limits: QueryLimits) {
    // a compiled query holds its type, and through it the whole tree of replaced or deleted schemas
    types.onChange?.(() => this.memo.clear());
  }

  prepare(cache: Cache, settings: QuerySettings, text: string, names: EntityNames): ExecutableQuery {
    const index = this.indexing.of(cache);
    if (this.types.version !== this.memoVersion) {
      // queries compiled against replaced schemas would keep every replaced tree alive
      this.memo.clear();
      this.memoVersion = this.types.version;
    }
    const id = `${cache.id}\0${names}\0${settings.indexed}\0${settings.indexedEntities.join(',')}\0${text}`;
    const known = this.memo.get(id);
    if (known && this.types.find(known.query.entity.name) === known.type) return known;
    const query = compileIckle(text, {
      findEntity: (name) => (names === 'java' ? findJavaEntity(name) : this.checkIndexed(findProtobufEntity(this.types, name), index)),
      fullTextAvailable: (entity) => index?.entity(entity.name) !== undefined,
    });
    const type = this.types.find(query.entity.name) as Type;
    const exec = new ExecutableQuery(query, type, this.types.typeIdOf(query.entity.name));
    this.memo.set(id, exec);
    return exec;
  }

  /** Runs `exec` over `cache`, whose entries `data` reads (the engine seam). */
  async search(cache: Cache, data: CacheData, exec: ExecutableQuery, paging: Paging, accuracy: number): Promise<QueryResult> {
    const started = process.hrtime.bigint();
    const budget = new QueryBudget(this.limits);
    await cache.settled();
    const index = this.indexing.of(cache);
    const loading: EntityLoading = { loaded: 0, ns: 0 };
    let result: QueryResult | undefined;
    try {
      if (index?.entity(exec.query.entity.name)) {
        // on the redis engine: every write acknowledged before now, through any node, is in the index first
        await index.current(budget.deadline);
        result = await runIndexQuery(exec, index, paging, accuracy, this.clock.now(), loading, budget);
      }
      result ??= await this.scan(data, exec, paging, budget);
    } catch (err) {
      throw budget.explain(err);
    }
    this.record(cache, result, exec.query.text, Number(process.hrtime.bigint() - started), loading);
    return result;
  }

  /** DELETE FROM …: removes every match through the engine seam (listeners and indexes follow); the count removed. */
  async remove(data: CacheData, exec: ExecutableQuery): Promise<number> {
    let removed = 0;
    let pending: Array<Promise<RemoveOutcome>> = [];
    const flush = async (): Promise<void> => {
      for (const outcome of await Promise.all(pending)) if (outcome === 'removed') removed++;
      pending = [];
    };
    await scanMatches(exec, data.scan(), async (row) => {
      const outcome = data.remove(row.key, NO_FLAGS);
      if (typeof outcome === 'string') {
        if (outcome === 'removed') removed++;
      } else {
        pending.push(outcome);
        if (pending.length >= REMOVE_BATCH) await flush();
      }
    });
    await flush();
    return removed;
  }

  statisticsOf(cache: Cache): QueryStatistics {
    let s = this.statistics.get(cache.id);
    if (!s) this.statistics.set(cache.id, (s = new QueryStatistics()));
    return s;
  }

  private async scan(data: CacheData, exec: ExecutableQuery, paging: Paging, budget: QueryBudget): Promise<QueryResult> {
    const collector = new ResultCollector(exec, paging, budget);
    await scanMatches(exec, data.scan(), (row) => collector.add(row), budget.slice);
    return collector.finish('non_indexed');
  }

  /**
   * Once the named type is known, an indexed cache checks its configured entities (ISPN028021/22
   * at the first query, as the original); an @Indexed type it does not list is unknown to it
   * (docs/reference/query.md#semantic-checks, the 16.x 400).
   */
  private checkIndexed(entity: EntityModel, index: CacheIndex | undefined): EntityModel {
    if (index && entity.indexed && !index.entity(entity.name)) throw new UnknownEntityError(`ISPN028510: Unknown entity name ${entity.name}`);
    index?.entities();
    return entity;
  }

  private record(cache: Cache, result: QueryResult, text: string, ns: number, loading: EntityLoading): void {
    const s = this.statisticsOf(cache);
    (result.kind === 'indexed' ? s.indexed : result.kind === 'hybrid' ? s.hybrid : s.nonIndexed).record(ns, text);
    if (loading.loaded) {
      s.entityLoad.record(loading.ns);
      s.entitiesLoaded += loading.loaded;
    }
  }
}
