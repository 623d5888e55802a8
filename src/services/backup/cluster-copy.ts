import { formatCacheDocument } from '../../model/cache-config';
import { selectNames, type Resources } from '../../model/backup/backup-resources';
import type { ContainerSnapshot } from './snapshot';
import { type BackupSources, OperationFailure } from './sources';

/**
 * What a backup holds on the redis engine (docs/backup-format.md#guarantees, per page): the
 * definitions, templates, schemas and tasks of this node's copy of the container's records once it
 * has every change committed before the backup began (`catchUp`), the counters' values read
 * through the engine seam, and each cache's entries as its `CacheData` walks them — every segment
 * of every master a bounded page at a time, each page consistent, the pages read one after another
 * while the cluster keeps serving writes. Nothing is held beyond the page being written.
 *
 * @public loaded on first use, through `lazy(() => require(…))`, which the dead-export check cannot follow
 */
export async function captureClusterCopy(src: BackupSources, resources: Resources): Promise<ContainerSnapshot> {
  await src.manager.catchUp();
  const cacheNames = src.manager.handles().filter((h) => !h.internal).map((h) => h.cache.name);
  const caches = required('cache(s)', selectNames(resources.caches, cacheNames));
  const templates = required('template(s)', selectNames(resources.templates, src.manager.templateDefinitions().map(([n]) => n)));
  const counters = required('counter(s)', selectNames(resources.counters, src.counters.names()));
  const schemas = required('schema(s)', selectNames(resources['proto-schemas'], src.schemas.list().map((s) => s.name)));
  const tasks = required('task(s)', selectNames(resources.tasks, src.tasks.list(true).map((t) => t.name)));
  return {
    caches: caches.map((name) => {
      const h = src.manager.require(name);
      return { name, configXml: formatCacheDocument(h.definition, name, 'xml', true), pages: () => h.data.entries() };
    }),
    templates: src.manager.templateDefinitions().filter(([n]) => templates.includes(n)).map(([name, def]) => ({ name, xml: formatCacheDocument(def, name, 'xml', true) })),
    counters: await Promise.all(counters.map(async (name) => ({ name, configuration: src.counters.config(name, false), value: await src.counters.value(name) }))),
    schemas: schemas.map((name) => ({ name, content: src.schemas.content(name) })),
    tasks: tasks.map((name) => ({ name, script: src.tasks.script(name) })),
    consistency: 'per-page',
    close: () => undefined,
  };
}

function required(what: string, selected: { names: string[]; missing: string[] }): string[] {
  if (selected.missing.length) throw new OperationFailure(`Unable to find ${what} ${selected.missing.join(', ')}`);
  return selected.names;
}
