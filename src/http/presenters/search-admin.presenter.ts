import { type EntityModel, isEmbedded, type PropertyModel } from '../../model/ickle/entity-model';
import type { IndexStatistics, QueryStatistics, TimingFigures } from '../../services/search-admin.service';
import type { SearchStatistics } from '../../services/search-statistics';

/** `GET search/stats` (docs/reference/query.md#search-admin): timings in nanoseconds, `slowest` only when known. */
export function presentSearchStats({ query: q, index }: SearchStatistics): Record<string, unknown> {
  const types = Object.fromEntries(index.types.map((t) => [t.name, { count: t.count, size: t.size }]));
  return {
    query: {
      indexed_local: timing(q.indexed),
      indexed_distributed: timing(q.indexed),
      hybrid: timing(q.hybrid),
      non_indexed: timing(q.nonIndexed),
      entity_load: timing(q.entityLoad),
    },
    index: { types, reindexing: index.reindexing, genericIndexingFailures: 0, entityIndexingFailures: index.entityIndexingFailures },
  };
}

function timing(t: TimingFigures): Record<string, unknown> {
  const out: Record<string, unknown> = { count: t.count, average: t.count ? t.totalNs / t.count : 0, max: t.maxNs };
  if (t.slowest !== undefined) out.slowest = t.slowest;
  return out;
}

/** Deprecated `GET search/indexes/stats`. */
export function presentLegacyIndexStats(index: IndexStatistics): Record<string, unknown> {
  return {
    indexed_class_names: index.types.map((t) => t.name),
    indexed_entities_count: Object.fromEntries(index.types.map((t) => [t.name, t.count])),
    index_sizes: Object.fromEntries(index.types.map((t) => [t.name, t.size])),
    reindexing: index.reindexing,
  };
}

/** Deprecated `GET search/query/stats`: all query kinds together, and entity loading. */
export function presentLegacyQueryStats(q: QueryStatistics): Record<string, unknown> {
  const kinds = [q.indexed, q.hybrid, q.nonIndexed];
  const count = kinds.reduce((n, k) => n + k.count, 0);
  const total = kinds.reduce((n, k) => n + k.totalNs, 0);
  const slowest = kinds.reduce((a, b) => (b.maxNs > a.maxNs ? b : a));
  return {
    search_query_execution_count: count,
    search_query_total_time: total,
    search_query_execution_max_time: Math.max(0, slowest.maxNs),
    search_query_execution_avg_time: count ? Math.round(total / count) : 0,
    object_loading_total_time: q.entityLoad.totalNs,
    object_loading_execution_max_time: Math.max(0, q.entityLoad.maxNs),
    object_loading_execution_avg_time: Math.round(q.entityLoad.averageNs),
    objects_loaded_count: q.entitiesLoaded,
    search_query_execution_max_time_query_string: slowest.slowest ?? '',
  };
}

/** `GET search/indexes/metamodel`: one object per indexed entity (docs/reference/query.md#search-admin). */
export function presentMetamodel(entities: EntityModel[]): Array<Record<string, unknown>> {
  return entities.map((e) => ({ 'entity-name': e.name, 'java-class': '[B', 'index-name': e.indexName, ...fieldsOf(e, false, 0) }));
}

function fieldsOf(e: EntityModel, parentMulti: boolean, depth: number): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const objects: Record<string, unknown> = {};
  for (const p of e.properties.values()) {
    if (!p.annotation) continue;
    const inRoot = parentMulti || p.repeated;
    if (p.kind === 'message') {
      if (!isEmbedded(p) || depth >= 3) continue;
      objects[p.name] = { 'multi-valued': p.repeated, 'multi-valued-in-root': inRoot, nested: true, ...fieldsOf(p.message!(), inRoot, depth + 1) };
    } else {
      values[p.name] = valueField(p, inRoot);
    }
  }
  const out: Record<string, unknown> = {};
  if (Object.keys(values).length) out['value-fields'] = values;
  if (Object.keys(objects).length) out['object-fields'] = objects;
  return out;
}

function valueField(p: PropertyModel, inRoot: boolean): Record<string, unknown> {
  const type = p.kind === 'bytes' ? 'java.lang.String' : p.javaType;
  const f: Record<string, unknown> = {
    'multi-valued': p.repeated,
    'multi-valued-in-root': inRoot,
    type,
    'projection-type': type,
    'argument-type': type,
    searchable: p.flags.searchable,
    sortable: p.flags.sortable,
    projectable: p.flags.projectable,
    aggregable: p.flags.aggregable,
  };
  if (p.analyzer) f.analyzer = p.analyzer;
  if (p.normalizer) f.normalizer = p.normalizer;
  return f;
}
