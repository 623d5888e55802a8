import { createWriteStream } from 'node:fs';
import { lstat, mkdir, rm, rmdir } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ArchiveExistsError, BackupDeleteFailedError, BackupFailedError, NotADirectoryError, OperationExistsError, OperationNotFoundError, RestoreFailedError,
  RestoreLocationError,
} from '../errors';
import type { Resources } from '../model/backup/backup-resources';
import { fileNameOf } from '../model/name-encoding';
import { checkResourceName } from '../model/resource-name';
import type { OperationRecord, Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../util/private-files';
import type { ArchiveLimits, ArchiveReader } from './backup/archive-reader';
import { BackupLocations } from './backup/locations';
import { type BackupSources, OperationFailure } from './backup/sources';
import { CONTAINER_NAME } from './container.service';
import { lazy } from '../util/lazy';

// archives are read and written only by backups and restores: their modules load on first use
const archiveReader = lazy(() => require('./backup/archive-reader') as typeof import('./backup/archive-reader'));
const archiveWriter = lazy(() => require('./backup/archive-writer') as typeof import('./backup/archive-writer'));
const restorer = lazy(() => require('./backup/restore') as typeof import('./backup/restore'));
const snapshots = lazy(() => require('./backup/snapshot') as typeof import('./backup/snapshot'));
const clusterCopies = lazy(() => require('./backup/cluster-copy') as typeof import('./backup/cluster-copy'));

type Kind = OperationRecord['kind'];
export type OperationStatus = OperationRecord['status'];

export interface BackupLimits extends ArchiveLimits {
  maxUploadBytes: number;
}

const GiB = 1024 ** 3;
export const DEFAULT_BACKUP_LIMITS: BackupLimits = {
  maxUploadBytes: 16 * GiB, maxUncompressedBytes: 256 * GiB, maxRatio: 200, maxEntries: 1_000_000, maxTextBytes: 64 * 1024 * 1024,
};

/**
 * `deleting`: a DELETE came while the operation ran; kept on disk so a crash cannot bring the operation back.
 * `node`: on the redis engine, the grid node that runs it (and holds a backup's archive).
 */
interface Detail { resources?: Resources; directory?: string; error?: string; uploaded?: boolean; deleting?: boolean; node?: NodeRef }

/** A grid node as the members list it: its process id, name and HTTP address. */
interface NodeRef { id: string; name: string; address: string }

/** The node that holds an operation another node asks about: where to send the client, if it runs. */
export interface Holder { name: string; address: string; live: boolean }

/**
 * The redis engine's part (docs/scale-out.md, "Backups and restores"): the operations' records are
 * the cluster's, so every node lists them and answers their status alike; each node runs the
 * operations it was asked for, and a backup's archive stays in its backup directory.
 */
export interface SharedOperations {
  /** This process's id among the members. */
  self: string;
  /** The live grid nodes (one read of the cluster). */
  members(): Promise<NodeRef[]>;
  /** Resolves once this node's copy of the records has every change committed before the call. */
  catchUp(): Promise<void>;
  /** Resolves once every other live node has applied what this node has written (a restore's definitions and schemas, say). */
  spread(): Promise<void>;
}

export interface BackupOptions {
  /** Where `directory` and `location` may point (default: the data dir only). */
  locations?: BackupLocations;
  /** A backup or restore still running after this many ms fails (default one hour). */
  timeoutMs?: number;
  /** The redis engine: records shared by the nodes, a per-page copy instead of a snapshot. */
  shared?: SharedOperations;
}

export const DEFAULT_BACKUP_TIMEOUT_MS = 3_600_000;

/**
 * Backups and restores (docs/reference/management-plane.md#backups-and-restores): named operations that
 * run in the background, one of each kind at a time; their records survive restart, and one in
 * progress at a crash is FAILED afterwards. A DELETE while running takes effect when it ends.
 */
export class BackupService {
  limits: BackupLimits = { ...DEFAULT_BACKUP_LIMITS };
  /** A backup or restore still running after this many ms fails; changes apply to operations started later. */
  timeoutMs: number;
  private readonly shared: SharedOperations | undefined;
  private readonly locations: BackupLocations;
  private records = new Map<string, OperationRecord>();
  /** The operations this node registers or runs: its own view of them is the newest (shared records). */
  private readonly own = new Set<string>();
  private readonly deleteWhenDone = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private sources: BackupSources | undefined;

  /**
   * `container` names the container in archives; a restore accepts only an archive of a container
   * with that name (docs/reference/management-plane.md#restores).
   */
  constructor(
    private readonly store: Store, private readonly dataDir: string, private readonly clock: Clock, private readonly log: Logger,
    private readonly container: string = CONTAINER_NAME, options: BackupOptions = {},
  ) {
    this.locations = options.locations ?? BackupLocations.open(dataDir, []);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_BACKUP_TIMEOUT_MS;
    this.shared = options.shared;
    for (const r of store.operations.list()) this.records.set(key(r.kind, r.name), r);
    // shared records are every node's: one in progress may be another's, running (`statusOf` tells);
    // this node's own interrupted ones are known once it has its name (`reclaim`, main.ts)
    if (!this.shared) this.reclaim(() => true);
  }

  /**
   * The operations in progress that `interrupted` says died with an earlier process of this node
   * (on SQLite every one; on the redis engine those recorded under this node's name by another
   * process): a backup's unfinished archive is removed, and each is FAILED — or gone, when its
   * DELETE was acknowledged while it ran.
   */
  private reclaim(interrupted: (node: NodeRef | undefined) => boolean): void {
    for (const r of [...this.records.values()]) {
      if (r.status !== 'IN_PROGRESS' || !interrupted(parseDetail(r).node)) continue;
      // the unfinished archive of an interrupted backup is garbage, whatever becomes of its record
      if (r.kind === 'backup' && r.path) void rm(`${r.path}.tmp`, { force: true }).catch(() => undefined);
      if (parseDetail(r).deleting) {
        // its DELETE was acknowledged (202): it goes now rather than coming back as failed
        this.records.delete(key(r.kind, r.name));
        void this.forget(r).catch((err: unknown) => this.log.error({ err }, 'could not remove an interrupted operation that was being deleted'));
        continue;
      }
      const failed = { ...r, status: 'FAILED' as const, detail: JSON.stringify({ ...parseDetail(r), error: 'interrupted by a server stop' }), updatedAt: this.clock.now() };
      void this.store.write({ kind: 'operation.upsert', record: failed }).promise.catch((err: unknown) => this.log.error({ err }, 'could not mark an interrupted operation failed'));
      this.log.warn({ operation: r.kind, name: r.name }, 'operation interrupted by a stop; now FAILED');
      this.records.set(key(r.kind, r.name), failed);
    }
  }

  /** On the redis engine, once this node is named: its operations a killed process of the same name left in progress (`reclaim`). */
  async reclaimOwn(nodeName: string): Promise<void> {
    const shared = this.shared;
    if (!shared) return;
    await this.refresh();
    this.reclaim((node) => node !== undefined && node.name === nodeName && node.id !== shared.self);
  }

  /** The resources backed up and restored; main.ts calls this once every service exists. */
  attach(sources: BackupSources): void {
    this.sources = sources;
  }

  async names(kind: Kind): Promise<string[]> {
    await this.refresh();
    return [...this.records.values()].filter((r) => r.kind === kind).map((r) => r.name).sort();
  }

  async status(kind: Kind, name: string): Promise<OperationStatus> {
    await this.refresh();
    return this.statusOf(this.require(kind, name));
  }

  /**
   * HEAD/GET: the archive of a complete backup (202 and 500 are the route's, from `status`);
   * `holder` when another node wrote it (the redis engine): the file is in that node's directory.
   */
  async archive(name: string): Promise<{ path: string; fileName: string; holder?: Holder }> {
    const status = await this.status('backup', name);
    if (status === 'FAILED') throw new BackupFailedError();
    const r = this.records.get(key('backup', name))!;
    return { path: r.path!, fileName: basename(r.path!), holder: await this.holderOf(r) };
  }

  async restoreStatus(name: string): Promise<OperationStatus> {
    const status = await this.status('restore', name);
    if (status === 'FAILED') throw new RestoreFailedError();
    return status;
  }

  /**
   * POST backup: 409 when the name is used; 400 ISPN012038 for a `directory` that is not an
   * existing directory inside the backup roots — the same answer whether or not a path outside the
   * roots exists. Then runs in the background.
   */
  async startBackup(name: string, request: { directory?: string; resources: Resources }): Promise<void> {
    await this.checkNew('backup', name);
    let parent = join(this.dataDir, 'backups');
    if (request.directory !== undefined) {
      const at = await this.locations.directory(request.directory);
      if (at.kind !== 'found') {
        this.log.warn({ backup: name, directory: request.directory, reason: at.reason }, 'backup directory refused');
        throw new NotADirectoryError(request.directory);
      }
      parent = at.path;
    }
    // the name is encoded: `a/b` or `..` is one folder inside `parent`, and no two names share one
    const file = fileNameOf(name);
    const target = join(parent, file, `${file}.zip`);
    if (await lstat(target).then(() => true, () => false)) throw new ArchiveExistsError(`${file}/${file}.zip`);
    const elsewhere = await this.runningElsewhere('backup', name);
    const record = await this.register('backup', name, target, { resources: request.resources, directory: request.directory });
    this.launch(record, (signal) => this.runBackup(record, request.resources, signal), elsewhere);
  }

  /** Checks a restore name before its upload is read (409 / 400). */
  async checkNewRestore(name: string): Promise<void> {
    await this.checkNew('restore', name);
  }

  /** Writes an uploaded archive to a private temp file; the caller checks for truncation. */
  async saveUpload(content: Readable): Promise<string> {
    const dir = join(this.dataDir, 'restores');
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const path = join(dir, `upload-${randomUUID()}.zip`);
    try {
      await pipeline(content, createWriteStream(path, { mode: PRIVATE_FILE_MODE }));
    } catch (err) {
      await rm(path, { force: true }); // a cut-off upload leaves nothing behind
      throw err;
    }
    return path;
  }

  async discardUpload(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  /**
   * POST restore: a `location` outside the backup roots, on a special file system or not a regular
   * file is 400 (the same answer whether or not it exists); a missing one inside the roots is not
   * registered, as the original does. The archive's directory is checked next (400 for a hostile
   * one, nothing written). The rest runs in the background.
   */
  async startRestore(name: string, location: string, resources: Resources, uploaded: boolean, mayWrite?: (cache: string) => boolean): Promise<void> {
    await this.checkNew('restore', name);
    let archivePath = location;
    if (!uploaded) {
      const at = await this.locations.file(location);
      if (at.kind !== 'found') this.log.warn({ restore: name, location, reason: at.reason }, 'restore location refused; nothing restored');
      if (at.kind === 'refused') throw new RestoreLocationError(location);
      if (at.kind === 'missing') return;
      archivePath = at.path;
    }
    let zip: ArchiveReader;
    try {
      zip = await archiveReader().ArchiveReader.open(archivePath, this.limits);
    } catch (e) {
      if (uploaded) await this.discardUpload(archivePath);
      throw e;
    }
    let elsewhere: boolean;
    let record: OperationRecord;
    try {
      elsewhere = await this.runningElsewhere('restore', name);
      record = await this.register('restore', name, archivePath, { resources, uploaded });
    } catch (e) {
      zip.close();
      if (uploaded) await this.discardUpload(archivePath);
      throw e;
    }
    this.launch(record, async (signal) => {
      try {
        return await restorer().restoreArchive(zip, this.requireSources(), this.container, resources, this.limits.maxTextBytes, mayWrite, signal);
      } finally {
        zip.close();
        if (uploaded) await this.discardUpload(archivePath);
      }
    }, elsewhere);
  }

  /**
   * DELETE: 'deleted' (204) or 'pending' (202, done when the operation ends). On the redis engine a
   * backup's archive, and an operation running, are the node's that runs it: another node answers
   * with that node (`Holder`, a redirect), and does nothing.
   */
  async delete(kind: Kind, name: string): Promise<'deleted' | 'pending' | Holder> {
    const k = key(kind, name);
    await this.refresh();
    const r = this.require(kind, name);
    const status = await this.statusOf(r);
    if (kind === 'backup' || status === 'IN_PROGRESS') {
      const holder = await this.holderOf(r);
      if (holder) return holder;
    }
    if (status === 'IN_PROGRESS') {
      this.deleteWhenDone.add(k);
      // durable before the 202: after a crash the operation is removed at start, not listed as failed
      await this.store.write({ kind: 'operation.upsert', record: { ...r, detail: JSON.stringify({ ...parseDetail(r), deleting: true }) } }).promise;
      const now = this.records.get(k);
      if (now && now.status !== 'IN_PROGRESS' && this.deleteWhenDone.delete(k)) await this.forget(now); // it ended meanwhile
      return 'pending';
    }
    if (kind === 'restore' && status === 'FAILED') throw new BackupDeleteFailedError();
    await this.forget(r);
    return 'deleted';
  }

  private require(kind: Kind, name: string): OperationRecord {
    const r = this.records.get(key(kind, name));
    if (!r) throw new OperationNotFoundError();
    return r;
  }

  /**
   * Shared records (the redis engine): this node's copy, once it has every change committed before
   * now — the operations this node registers or runs as it has them (their writes may be on their way).
   */
  private async refresh(): Promise<void> {
    if (!this.shared) return;
    await this.shared.catchUp();
    const fresh = new Map(this.store.operations.list().map((r) => [key(r.kind, r.name), r]));
    for (const k of this.own) {
      const mine = this.records.get(k);
      if (mine) fresh.set(k, mine);
    }
    this.records = fresh;
  }

  /** An operation of another process that is not among the live nodes never ends: it failed with its node. */
  private async statusOf(r: OperationRecord): Promise<OperationStatus> {
    const node = parseDetail(r).node;
    if (!this.shared || r.status !== 'IN_PROGRESS' || !node || node.id === this.shared.self) return r.status;
    return (await this.shared.members()).some((m) => m.id === node.id) ? 'IN_PROGRESS' : 'FAILED';
  }

  /**
   * The node that holds `r` when it is not this one (undefined on SQLite): the one that ran it —
   * by name, so a node started again under its name holds the archives it wrote before.
   */
  private async holderOf(r: OperationRecord): Promise<Holder | undefined> {
    const node = parseDetail(r).node;
    if (!this.shared || !node || node.id === this.shared.self) return undefined;
    const members = await this.shared.members();
    if (members.find((m) => m.id === this.shared!.self)?.name === node.name) return undefined;
    const live = members.find((m) => m.name === node.name);
    return live ? { name: live.name, address: live.address, live: true } : { name: node.name, address: node.address, live: false };
  }

  /**
   * Whether another node runs an operation of this kind (the redis engine): one of each kind at a
   * time across the cluster, as checked when one starts (two nodes starting one in the same instant may both run).
   */
  private async runningElsewhere(kind: Kind, name: string): Promise<boolean> {
    if (!this.shared) return false;
    for (const r of this.records.values()) {
      if (r.kind !== kind || r.name === name || r.status !== 'IN_PROGRESS' || this.own.has(key(r.kind, r.name))) continue;
      if (await this.statusOf(r) === 'IN_PROGRESS') return true;
    }
    return false;
  }

  /** This node as the members list it (the redis engine), recorded with each operation it runs. */
  private async selfNode(): Promise<NodeRef | undefined> {
    if (!this.shared) return undefined;
    const self = this.shared.self;
    return (await this.shared.members()).find((m) => m.id === self) ?? { id: self, name: '', address: '' };
  }

  /** Waits for every running operation (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all(this.running.values());
  }

  /** Shutdown: every running operation (and any started from now on) fails at once, recorded as interrupted. */
  cancel(): void {
    this.stopping.abort(new OperationFailure('interrupted by a server stop'));
  }

  private async runBackup(record: OperationRecord, resources: Resources, signal: AbortSignal): Promise<{ entries: number; bytes: number }> {
    // one instant on SQLite; on the redis engine a copy page by page (docs/backup-format.md#guarantees)
    const snapshot = this.shared
      ? await clusterCopies().captureClusterCopy(this.requireSources(), resources)
      : await snapshots().captureSnapshot(this.requireSources(), this.store, resources, () => this.clock.now());
    try {
      signal.throwIfAborted();
      return await archiveWriter().writeArchive(snapshot, this.container, record.path!, signal);
    } finally {
      snapshot.close();
    }
  }

  private async checkNew(kind: Kind, name: string): Promise<void> {
    checkResourceName(kind, name); // `/` and `..` are fine: the folder name is encoded (startBackup)
    await this.refresh();
    if (this.records.has(key(kind, name))) throw new OperationExistsError();
  }

  private async register(kind: Kind, name: string, path: string, detail: Detail): Promise<OperationRecord> {
    const k = key(kind, name);
    if (this.records.has(k)) throw new OperationExistsError(); // taken while this request awaited
    const now = this.clock.now();
    const record: OperationRecord = { kind, name, status: 'IN_PROGRESS', path, detail: '', createdAt: now, updatedAt: now };
    this.records.set(k, record);
    this.own.add(k);
    try {
      record.detail = JSON.stringify({ ...detail, node: await this.selfNode() });
      await this.store.write({ kind: 'operation.upsert', record }).promise;
    } catch (e) {
      this.records.delete(k);
      this.own.delete(k);
      throw e;
    }
    return record;
  }

  /**
   * Runs an operation in the background; only one of each kind at a time (docs/reference/management-plane.md#backups).
   * It fails when it outlives `timeoutMs` or the server stops: the outcome is recorded at once and
   * the lock released even if the work is stuck in the file system; the work sees the signal at its
   * next step and stops there.
   */
  private launch(record: OperationRecord, work: (signal: AbortSignal) => Promise<object>, elsewhere = false): void {
    const k = key(record.kind, record.name);
    const busy = elsewhere || [...this.running.keys()].some((other) => other.startsWith(`${record.kind}:`));
    const { signal, done } = this.deadline(record.kind);
    const attempt = busy ? Promise.reject(new OperationFailure(`another ${record.kind} is in progress`)) : Promise.resolve().then(() => work(signal));
    attempt.catch(() => undefined); // once abandoned, its late failure is nobody's
    const run = Promise.race([attempt, rejectOnAbort(signal)])
      .then(
        (result) => this.finish(record, 'SUCCEEDED', undefined, result),
        (err: unknown) => this.finish(record, 'FAILED', err, {}),
      )
      .catch((err: unknown) => this.log.error({ err, [record.kind]: record.name }, 'could not record the outcome'))
      .finally(() => {
        done();
        this.running.delete(k);
        this.own.delete(k);
      });
    this.running.set(k, run);
  }

  /** One operation's signal: aborted by its time limit or by the server stopping. */
  private deadline(kind: Kind): { signal: AbortSignal; done: () => void } {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new OperationFailure(`The ${kind} did not finish within ${this.timeoutMs} ms`)), this.timeoutMs);
    timer.unref();
    const onStop = () => controller.abort(this.stopping.signal.reason);
    if (this.stopping.signal.aborted) onStop();
    else this.stopping.signal.addEventListener('abort', onStop, { once: true });
    return {
      signal: controller.signal,
      done: () => {
        clearTimeout(timer);
        this.stopping.signal.removeEventListener('abort', onStop);
      },
    };
  }

  private async finish(record: OperationRecord, status: OperationStatus, err: unknown, result: object): Promise<void> {
    const k = key(record.kind, record.name);
    const error = err === undefined ? undefined : err instanceof Error ? err.message : String(err);
    if (status === 'FAILED') {
      const known = err instanceof OperationFailure;
      this.log[known ? 'warn' : 'error']({ [record.kind]: record.name, ...(known ? { reason: error } : { err }) }, `${record.kind} failed`);
    } else {
      this.log.info({ [record.kind]: record.name, ...result }, `${record.kind} completed`);
    }
    const done: OperationRecord = { ...record, status, detail: JSON.stringify({ ...parseDetail(record), error }), updatedAt: this.clock.now() };
    // a node that says it is done has what it wrote in force on every node: a client reads it through any
    await this.shared?.spread().catch((e: unknown) => this.log.warn({ err: e, [record.kind]: record.name }, 'could not wait for the other nodes to apply what the operation wrote'));
    if (this.deleteWhenDone.delete(k)) return this.forget(done);
    await this.store.write({ kind: 'operation.upsert', record: done }).promise;
    this.records.set(k, done);
  }

  /** Drops a record; a backup's archive (and its folder, once empty) goes with it. */
  private async forget(r: OperationRecord): Promise<void> {
    if (r.kind === 'backup' && r.path) {
      await rm(r.path, { force: true });
      await rm(`${r.path}.tmp`, { force: true });
      await rmdir(dirname(r.path)).catch(() => undefined);
    }
    await this.store.write({ kind: 'operation.delete', operation: r.kind, name: r.name }).promise;
    this.records.delete(key(r.kind, r.name));
  }

  private requireSources(): BackupSources {
    if (!this.sources) throw new Error('BackupService.attach was not called');
    return this.sources;
  }
}

function key(kind: Kind, name: string): string {
  return `${kind}:${name}`;
}

function parseDetail(r: OperationRecord): Detail {
  try {
    return JSON.parse(r.detail) as Detail;
  } catch {
    return {};
  }
}

/** Rejects with the signal's reason once it is aborted. */
function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
