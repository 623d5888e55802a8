import { CacheNotFoundError, DistributedTaskWithoutCacheError, MissingArgumentError, NoSuchScriptError, UnknownTaskError } from '../../errors';
import type { CacheManager } from '../../grid/cache-manager';
import { checkResourceName } from '../../model/resource-name';
import { parseScriptMetadata, requireJavaScript, type ScriptMetadata } from '../../model/script-metadata';
import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import { ANONYMOUS_ADMIN, type Subject } from '../auth/auth.service';
import { cacheMask, canAccess, requirePermission } from '../auth/authorization';
import { viewOf } from '../cache-view';
import { ADMIN_TASKS, type AdminLogging, type AdminTask, type CacheAccess } from './task-admin';
import { ScriptBindings } from './script-bindings';
import type { SandboxLimits } from './script-limits';
import { ScriptSandbox, type ScriptOutcome } from './script-sandbox';

/** One row of `GET /tasks` (docs/reference/management-plane.md#tasks). */
export interface TaskInfo {
  name: string;
  type: 'Script' | 'AdminServerTask';
  parameters: string[];
  execution_mode: 'ONE_NODE' | 'ALL_NODES';
  instantiation_mode: 'SHARED' | 'ISOLATED';
  allowed_role: string | null;
}

export interface ExecRequest {
  subject: Subject;
  /** `param.<name>` values, first value of each. */
  parameters: Record<string, string>;
  /** `cache=`, when given. */
  cacheName: string | undefined;
}

interface ScriptTask {
  script: string;
  metadata: ScriptMetadata;
  createdAt: number;
}

/** Server tasks (docs/reference/management-plane.md#tasks): uploaded JavaScript scripts and built-in admin tasks. */
export class TaskService {
  readonly sandbox: ScriptSandbox;
  private readonly scripts = new Map<string, ScriptTask>();
  private admin = adminTasks(undefined);
  private logging: AdminLogging | undefined;

  constructor(private readonly store: Store, private readonly manager: CacheManager, private readonly clock: Clock, limits: Partial<SandboxLimits> = {}) {
    this.sandbox = new ScriptSandbox(limits);
    this.reload();
  }

  /** Reads the stored scripts: at start, and when another node changed them. */
  reload(): void {
    this.scripts.clear();
    for (const r of this.store.tasks.list()) this.scripts.set(r.name, { script: r.script, metadata: storedMetadata(r.name, r.script), createdAt: r.createdAt });
  }

  /**
   * The server's loggers, for `@@logging@set` and `@@logging@remove`: given to the default
   * container's tasks only (a tenant does not change the server's logging, as with /rest/v2/logging).
   */
  useLogging(logging: AdminLogging): void {
    this.logging = logging;
    this.admin = adminTasks(logging);
  }

  /** Shutdown: running scripts stop (their answer says so) and new ones are refused. */
  close(): void {
    this.sandbox.close();
  }

  /** Scripts by name, then the admin tasks unless `userOnly` (`?type=user`). */
  list(userOnly: boolean): TaskInfo[] {
    const scripts = [...this.scripts.keys()].sort().map((name): TaskInfo => {
      const m = this.scripts.get(name)!.metadata;
      // the original reports no allowed role for scripts, whatever their `role` says
      return { name, type: 'Script', parameters: m.parameters, execution_mode: m.mode === 'LOCAL' ? 'ONE_NODE' : 'ALL_NODES', instantiation_mode: 'SHARED', allowed_role: null };
    });
    if (userOnly) return scripts;
    const admin = [...this.admin.values()].map((t): TaskInfo => ({
      name: t.name, type: 'AdminServerTask', parameters: t.parameters, execution_mode: t.executionMode, instantiation_mode: 'SHARED', allowed_role: null,
    }));
    return [...scripts, ...admin];
  }

  /** PUT and POST both create or replace; the header is checked, and the script compiled, before anything is stored. */
  async upload(name: string, script: string): Promise<void> {
    const metadata = this.checkScript(name, script);
    await this.sandbox.check(name, script);
    await this.save(name, script, metadata);
  }

  /**
   * A script from a backup archive: its header is checked, but it is not compiled first — an
   * archive of the original may hold a script written for its engine, which should not stop the
   * rest of the restore; running it says what is wrong.
   */
  async restore(name: string, script: string): Promise<void> {
    await this.save(name, script, this.checkScript(name, script));
  }

  /** The name (the one naming rule) and the script's header (a JavaScript task), each checked once. */
  private checkScript(name: string, script: string): ScriptMetadata {
    checkResourceName('task', name);
    const metadata = parseScriptMetadata(name, script);
    requireJavaScript(name, metadata);
    return metadata;
  }

  private async save(name: string, script: string, metadata: ScriptMetadata): Promise<void> {
    const now = this.clock.now();
    const createdAt = this.scripts.get(name)?.createdAt ?? now;
    await this.store.write({ kind: 'task.upsert', record: { name, script, createdAt, updatedAt: now } }).promise;
    this.scripts.set(name, { script, metadata, createdAt });
  }

  /** The script text exactly as uploaded. */
  script(name: string): string {
    const task = this.scripts.get(name);
    if (!task) throw new NoSuchScriptError(name);
    return task.script;
  }

  /**
   * Runs a task. Scripts need EXEC (checked by the route) and, when they declare one, the `role`;
   * admin tasks need ADMIN. The answer comes only once the script's cache writes are durable.
   */
  async exec(name: string, req: ExecRequest): Promise<ScriptOutcome> {
    const adminTask = this.admin.get(name);
    if (adminTask) {
      requirePermission(req.subject, req.subject.mask, 'ADMIN');
      const result = await adminTask.run(req.parameters, { manager: this.manager, access: this.cacheAccess(req.subject), logging: this.logging });
      if (Buffer.isBuffer(result)) return { kind: 'bytes', bytes: result };
      return { kind: 'json', text: JSON.stringify(result ?? null) };
    }
    const task = this.scripts.get(name);
    if (!task) throw new UnknownTaskError(name);
    this.requireRole(req.subject, task.metadata);
    if (req.cacheName !== undefined) {
      const h = this.manager.find(req.cacheName);
      if (!h || h.internal || !canAccess(req.subject, viewOf(h))) throw new CacheNotFoundError(req.cacheName);
    }
    if (task.metadata.mode === 'DISTRIBUTED' && req.cacheName === undefined) throw new DistributedTaskWithoutCacheError(name);
    // a declared parameter not passed would be a ReferenceError (500) inside the script
    const missing = task.metadata.parameters.find((p) => req.parameters[p] === undefined);
    if (missing !== undefined) throw new MissingArgumentError(`param.${missing}`);
    const bindings = new ScriptBindings(this.manager, req.subject);
    let outcome: ScriptOutcome;
    try {
      outcome = await this.sandbox.run({ source: task.script, parameters: req.parameters, cacheName: req.cacheName, host: bindings.call });
    } finally {
      await bindings.settled(); // a failing script's earlier writes stay, as the original's do
    }
    // one node: a distributed script answers the list of one result per node
    if (task.metadata.mode === 'DISTRIBUTED' && outcome.kind === 'json') return { kind: 'json', text: `[${outcome.text}]` };
    return outcome;
  }

  /** Admin tasks that name a cache follow that cache's own roles, as the REST routes do. */
  private cacheAccess(subject: Subject): CacheAccess {
    return {
      requireAdmin: (name) => {
        const h = this.manager.find(name);
        if (h) requirePermission(subject, cacheMask(subject, viewOf(h)), 'ADMIN');
      },
      canSee: (h) => canAccess(subject, viewOf(h)),
    };
  }

  /** The script's `role` must be one of the caller's roles and grant EXEC (security on only, as the original). */
  private requireRole(subject: Subject, m: ScriptMetadata): void {
    if (m.role === undefined || subject === ANONYMOUS_ADMIN) return;
    const mask = subject.roles.includes(m.role) ? subject.roleMasks[m.role] ?? 0 : 0;
    requirePermission(subject, mask, 'EXEC');
  }
}

/** The admin tasks by name; those that change the server's loggers only where they are given. */
function adminTasks(logging: AdminLogging | undefined): Map<string, AdminTask> {
  return new Map(ADMIN_TASKS.filter((t) => !t.needsLogging || logging).map((t) => [t.name, t]));
}

/** A stored script was checked at upload; should its header no longer parse, it stays listed and readable with the defaults. */
function storedMetadata(name: string, script: string): ScriptMetadata {
  try {
    return parseScriptMetadata(name, script);
  } catch {
    return parseScriptMetadata(name, '');
  }
}
