import { InvalidLevelError, LoggerNotFoundError, MissingArgumentsError, UnknownAppenderError } from '../errors';
import type { Store } from '../store/store';
import { LEVELS, type LoggerRegistry, type LoggerView } from '../util/logger-registry';

/** Loggers and appenders changed at run time, persisted (docs/reference/management-plane.md#logging). */
export class LoggingService {
  constructor(private readonly registry: LoggerRegistry, private readonly store: Store) {
    for (const r of store.loggers.list()) registry.configure(r.name, { level: r.level, appenders: r.appenders });
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
  }

  async remove(name: string): Promise<void> {
    if (!this.registry.isConfigured(name)) throw new LoggerNotFoundError(name);
    await this.store.write({ kind: 'logger.delete', name }).promise;
    this.registry.configure(name, undefined);
  }
}
