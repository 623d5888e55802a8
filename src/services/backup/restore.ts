import type { Commit } from '../../store/store';
import {
  FrameReader, KEY_FORMAT, KEYS_IN_STORAGE_TYPE, MANIFEST, MIN_ARCHIVE_MAJOR, archivePaths, decodeCounter, decodeEntry, parseNameList, parseProperties,
} from '../../model/backup/backup-archive';
import { convertLegacyKey, mayHoldLegacyKeys } from '../../model/media/legacy-keys';
import { NO_FLAGS } from '../../model/flags';
import { checkResourceName } from '../../model/resource-name';
import { storageTypesOf } from '../storage-types';
import { RESOURCE_TYPES, type ResourceType, type Resources, selectNames } from '../../model/backup/backup-resources';
import type { CacheDefinition } from '../../model/cache-config';
import type { ArchiveReader } from './archive-reader';
import { type BackupSources, OperationFailure, yieldToLoop } from './sources';

const BATCH = 500;

interface RestorePlan {
  schemas: Array<{ name: string; content: string }>;
  templates: Array<{ name: string; definition: CacheDefinition }>;
  caches: Array<{ name: string; definition: CacheDefinition; data: string | undefined }>;
  counters: string | undefined;
  counterNames: string[];
  tasks: Array<{ name: string; script: string }>;
  /** The archive is grid 0.1.0's: its keys are the path segment's bytes (docs/backup-format.md). */
  legacyKeys: boolean;
}

export interface RestoreOutcome {
  entries: number;
}

/**
 * Restores the selected resources of an archive into the container (docs/reference/management-plane.md#backup-archive): first
 * every selected part is read and checked (manifest, container name, names, configurations, entry
 * records), then — only if all is well — applied, schemas first, then templates, caches (existing
 * caches kept, entries added with their times), counters and tasks.
 *
 * @public loaded on first use, through `lazy(() => require(…))`, which the dead-export check cannot follow
 */
export async function restoreArchive(
  zip: ArchiveReader, src: BackupSources, container: string, resources: Resources, textLimit: number,
  mayWrite: (cache: string) => boolean = () => true, signal?: AbortSignal,
): Promise<RestoreOutcome> {
  const plan = await planRestore(zip, src, container, resources, textLimit, signal);
  // the cache's own roles decide who may write into an existing cache, a restore included
  const refused = plan.caches.filter((c) => !mayWrite(c.name)).length;
  if (refused) throw new OperationFailure(`Unable to restore: the caller lacks 'ADMIN' permission on ${refused} existing cache(s) of the archive`);
  signal?.throwIfAborted();
  return applyPlan(zip, src, plan, signal);
}

async function planRestore(zip: ArchiveReader, src: BackupSources, container: string, resources: Resources, textLimit: number, signal: AbortSignal | undefined): Promise<RestorePlan> {
  const read = async (name: string) => {
    if (!zip.has(name)) throw new OperationFailure(`The archive has no '${name}'`);
    return zip.text(name, textLimit);
  };
  const manifest = parseProperties(await read(MANIFEST));
  const version = manifest.get('version') ?? '';
  if (!(Number.parseInt(version, 10) >= MIN_ARCHIVE_MAJOR)) throw new OperationFailure(`Unable to restore from a backup as '${version}' is no longer supported`);
  if (!(parseNameList(manifest.get('containers')) ?? []).includes(container)) throw new OperationFailure(`The archive holds no container '${container}'`);
  const props = parseProperties(await read(archivePaths.containerProperties(container)));
  const chosen = {} as Record<ResourceType, string[]>;
  for (const type of RESOURCE_TYPES) {
    const listed = parseNameList(props.get(type));
    if (!listed) throw new OperationFailure(`Invalid '${type}' list in container.properties`);
    const { names, missing } = selectNames(resources[type], listed);
    if (missing.length) throw new OperationFailure(`Unable to find ${type} ${missing.join(', ')} in the archive`);
    // an archive may come from anywhere: its names follow the server's naming rule before anything is written
    for (const name of names) checkArchivedName(type, name);
    chosen[type] = names;
  }
  const p = archivePaths;
  const plan: RestorePlan = {
    schemas: await Promise.all(chosen['proto-schemas'].map(async (name) => ({ name, content: await read(p.schema(container, name)) }))),
    templates: await Promise.all(chosen.templates.map(async (name) => ({ name, definition: await parseConfig(src, await read(p.template(container, name)), name) }))),
    caches: await Promise.all(chosen.caches.map(async (name) => ({
      name, definition: await parseConfig(src, await read(p.cacheConfig(container, name)), name), data: zip.has(p.cacheData(container, name)) ? p.cacheData(container, name) : undefined,
    }))),
    counters: chosen.counters.length ? p.counters(container) : undefined,
    counterNames: chosen.counters,
    tasks: await Promise.all(chosen.tasks.map(async (name) => ({ name, script: await read(p.task(container, name)) }))),
    legacyKeys: manifest.get(KEY_FORMAT) !== KEYS_IN_STORAGE_TYPE,
  };
  // every record is decoded once before anything is written
  for (const c of plan.caches) if (c.data) await forEachRecord(zip, c.data, (bytes) => void decode(decodeEntry, bytes, c.data!), signal);
  if (plan.counters) {
    const found = new Set<string>();
    await forEachRecord(zip, plan.counters, (bytes) => void found.add(decode(decodeCounter, bytes, plan.counters!).name), signal);
    const missing = plan.counterNames.filter((n) => !found.has(n));
    if (missing.length) throw new OperationFailure(`Unable to find counters ${missing.join(', ')} in counters.dat`);
  }
  return plan;
}

async function applyPlan(zip: ArchiveReader, src: BackupSources, plan: RestorePlan, signal: AbortSignal | undefined): Promise<RestoreOutcome> {
  for (const s of plan.schemas) await src.schemas.save(s.name, s.content);
  for (const t of plan.templates) await src.manager.defineTemplate(t.name, t.definition);
  let entries = 0;
  for (const c of plan.caches) {
    const h = src.manager.named(c.name) ?? await src.manager.create(c.name, c.definition, { volatile: false });
    if (!c.data) continue;
    let commits = new Set<Commit>();
    let inBatch = 0;
    const keyStorage = storageTypesOf(h.cache.settings).key;
    const convert = plan.legacyKeys && mayHoldLegacyKeys(keyStorage);
    const engine = h.data.restore && h.data;
    let writes: Array<Promise<boolean>> = [];
    await forEachRecord(zip, c.data, async (bytes) => {
      const entry = decodeEntry(bytes);
      if (convert) {
        const key = convertLegacyKey(entry.key, keyStorage, src.types);
        // two spellings of one key: the most recently written entry wins, as at start-up (the writes
        // in flight land first on the redis engine, so the other spelling's is seen)
        if (engine) await Promise.all(writes);
        const existing = engine ? key && await engine.peek(key, NO_FLAGS) : key && h.cache.peek(key);
        if (key && (existing?.created ?? -Infinity) > entry.created) return;
        if (key) entry.key = key;
      }
      if (engine) {
        // the redis engine: through the seam, a batch of writes in flight at once (docs/scale-out.md, "Backups and restores")
        const write = engine.restore!(entry);
        write.catch(() => undefined); // heard by the batch's Promise.all; never an unhandled rejection meanwhile
        writes.push(write);
        entries++;
        if (++inBatch < BATCH) return;
        await Promise.all(writes);
        writes = [];
        inBatch = 0;
        return yieldToLoop(signal);
      }
      const written = h.cache.restore(entry);
      if (written?.commit) commits.add(written.commit);
      entries++;
      if (++inBatch < BATCH) return;
      await Promise.all([...commits].map((x) => x.promise));
      commits = new Set();
      inBatch = 0;
      await yieldToLoop(signal);
    }, signal);
    await Promise.all([...commits].map((x) => x.promise));
    await Promise.all(writes);
  }
  if (plan.counters) {
    const wanted = new Set(plan.counterNames);
    await forEachRecord(zip, plan.counters, async (bytes) => {
      const c = decodeCounter(bytes);
      if (wanted.has(c.name)) await src.counters.restore(c.name, c.configuration, c.value);
    }, signal);
  }
  for (const t of plan.tasks) await src.tasks.restore(t.name, t.script);
  return { entries };
}

/** Streams one `.dat` entry record by record; `onRecord` may be async (it is awaited in order). Stops when `signal` aborts. */
async function forEachRecord(zip: ArchiveReader, name: string, onRecord: (bytes: Buffer) => void | Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  const frames = new FrameReader();
  try {
    for await (const chunk of await zip.stream(name)) {
      signal?.throwIfAborted();
      for (const record of frames.push(chunk as Buffer)) await onRecord(record);
    }
    frames.end();
  } catch (e) {
    throw e instanceof OperationFailure ? e : new OperationFailure(`Invalid '${name}': ${e instanceof Error ? e.message : String(e)}`);
  }
}

function decode<T>(fn: (b: Buffer) => T, bytes: Buffer, entry: string): T {
  try {
    return fn(bytes);
  } catch (e) {
    throw new OperationFailure(`Invalid record in '${entry}': ${e instanceof Error ? e.message : String(e)}`);
  }
}

const KIND: Record<ResourceType, string> = { caches: 'cache', templates: 'template', counters: 'counter', 'proto-schemas': 'schema', tasks: 'task' };

function checkArchivedName(type: ResourceType, name: string): void {
  try {
    checkResourceName(KIND[type], name);
  } catch (e) {
    throw new OperationFailure(e instanceof Error ? e.message : String(e));
  }
}

/** Archives come from clients too: their definitions are parsed like any other (limits, worker thread). */
async function parseConfig(src: BackupSources, xml: string, name: string): Promise<CacheDefinition> {
  try {
    return await src.caches.parseConfiguration(xml, 'xml');
  } catch (e) {
    throw new OperationFailure(`Invalid configuration of '${name}': ${e instanceof Error ? e.message : String(e)}`);
  }
}
