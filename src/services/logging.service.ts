import { InvalidLevelError, LoggerNotFoundError, MissingArgumentsError, UnknownAppenderError } from '../errors';
import type { Store } from '../store/store';
import { LEVELS, type LoggerRegistry, type LoggerView } from '../util/logger-registry';

/** Loggers and appenders changed at run time, persisted (docs/reference/management-plane.md#logging). */
export class LoggingService {
  private stored = new Set<string>();

  constructor(private readonly registry: LoggerRegistry, private readonly store: Store) {
    this.reload();
  }

  /** Applies the stored loggers: at start, and when another node changed them (a removed one goes back to what it inherits). */
  reload(): void {
    const records = this.store.loggers.list();
    const stored = new Set(records.map((r) => r.name));
    for (const name of this.stored) if (!stored.has(name)) this.registry.configure(name, undefined);
    for (const r of records) this.registry.configure(r.name, { level: r.level, appenders: r.appenders });
    this.stored = stored;
  }

  loggers(): LoggerView[] {
    return this.registry.loggers();
  }

  appenders(): Record<string, { name: string }> {
    return Object.fromEntries(this.registry.appenderNames().map((name) => [name, { name }]));
  }

  /** Creates or changes a logger ('' = root); absent parts keep what the logger inherits. */
  async set(name: string, level: string | undefined, appenders: string[] | undefined): Promise<void> {
    if (level === undefined && appenders === undefined) throw new MissingArgumentsError(['level', 'appender']);
    const normalized = level?.toUpperCase();
    if (normalized !== undefined && !(normalized in LEVELS)) throw new InvalidLevelError(level!);
    for (const a of appenders ?? []) if (!this.registry.appenderNames().includes(a)) throw new UnknownAppenderError(a);
    await this.store.write({ kind: 'logger.upsert', record: { name, level: normalized, appenders } }).promise;
    this.registry.configure(name, { level: normalized, appenders });
    this.stored.add(name);
  }

  async remove(name: string): Promise<void> {
    if (!this.registry.isConfigured(name)) throw new LoggerNotFoundError(name);
    await this.store.write({ kind: 'logger.delete', name }).promise;
    this.registry.configure(name, undefined);
    this.stored.delete(name);
  }
}
