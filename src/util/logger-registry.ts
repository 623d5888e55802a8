import pino, { type DestinationStream, type Logger } from 'pino';

/** log4j level names (what the API speaks) → pino levels. */
export const LEVELS: Readonly<Record<string, pino.LevelWithSilent>> = {
  OFF: 'silent', FATAL: 'fatal', ERROR: 'error', WARN: 'warn', INFO: 'info', DEBUG: 'debug', TRACE: 'trace', ALL: 'trace',
};

const LOG4J: Record<string, string> = { silent: 'OFF', fatal: 'FATAL', error: 'ERROR', warn: 'WARN', info: 'INFO', debug: 'DEBUG', trace: 'TRACE' };

/** What one logger is configured with; absent parts come from the nearest configured ancestor. */
export interface LoggerSetting {
  level?: string;
  appenders?: string[];
}

export interface LoggerView {
  name: string;
  level: string;
  appenders: string[];
}

const ROOT = '';

/**
 * Named loggers with levels and appenders that can change at run time, as log4j's are in the
 * original (docs/reference/management-plane.md#logging). One pino root writes every line into a router that sends it to
 * the appenders of the logger that wrote it; each part of the server logs through a named child
 * (`grid.http`, `grid.store`, …) whose level follows its own or its nearest ancestor's setting.
 */
export class LoggerRegistry {
  readonly root: Logger;
  private readonly children = new Map<string, Logger>();
  private readonly settings = new Map<string, LoggerSetting>();
  private readonly routes = new Map<string, DestinationStream[]>();

  constructor(private readonly appenders: Readonly<Record<string, DestinationStream>>, rootLevel: pino.LevelWithSilent) {
    this.settings.set(ROOT, { level: LOG4J[rootLevel], appenders: Object.keys(appenders) });
    const router: DestinationStream = { write: (line: string) => this.route(line) };
    this.root = pino({
      level: 'trace',
      base: undefined,
      // ISO 8601, readable in the file and on a pipe as it is
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['authorization', 'headers.authorization', 'req.headers.authorization'], censor: '[redacted]' },
    }, router);
    this.root.level = rootLevel;
  }

  /** The named logger (created once; its level follows the configuration). */
  get(name: string): Logger {
    let child = this.children.get(name);
    if (!child) {
      child = this.root.child({ logger: name });
      this.children.set(name, child);
      this.apply();
    }
    return child;
  }

  appenderNames(): string[] {
    return Object.keys(this.appenders);
  }

  /** Sets (or with undefined, removes) one logger's configuration; '' is the root. */
  configure(name: string, setting: LoggerSetting | undefined): void {
    if (setting === undefined) this.settings.delete(name);
    else this.settings.set(name, { ...this.settings.get(name), ...dropUndefined(setting) });
    if (!this.settings.has(ROOT)) this.settings.set(ROOT, { level: 'INFO', appenders: this.appenderNames() });
    this.apply();
  }

  isConfigured(name: string): boolean {
    return this.settings.has(name);
  }

  /** Every configured logger and every named one in use, with effective level and appenders. */
  loggers(): LoggerView[] {
    const names = new Set([...this.settings.keys(), ...this.children.keys()]);
    return [...names].sort().map((name) => ({ name, level: this.effective(name, 'level') as string, appenders: this.effective(name, 'appenders') as string[] }));
  }

  flush(): void {
    for (const a of Object.values(this.appenders)) (a as { flushSync?: () => void }).flushSync?.();
  }

  /** Flushes and closes the appenders that own a file (standard output stays open). */
  async close(): Promise<void> {
    this.flush();
    await Promise.all(Object.values(this.appenders).map((a) => (a as { end?: () => Promise<void> }).end?.() ?? Promise.resolve()));
  }

  private effective<K extends keyof LoggerSetting>(name: string, key: K): NonNullable<LoggerSetting[K]> {
    for (let n: string | undefined = name; n !== undefined; n = parentOf(n)) {
      const v = this.settings.get(n)?.[key];
      if (v !== undefined) return v as NonNullable<LoggerSetting[K]>;
    }
    return (key === 'level' ? 'INFO' : this.appenderNames()) as NonNullable<LoggerSetting[K]>;
  }

  private apply(): void {
    this.root.level = LEVELS[this.effective(ROOT, 'level')];
    this.routes.clear();
    for (const [name, child] of this.children) child.level = LEVELS[this.effective(name, 'level')];
  }

  private route(line: string): void {
    const start = line.indexOf('"logger":"');
    const name = start < 0 ? ROOT : line.slice(start + 10, line.indexOf('"', start + 10));
    let targets = this.routes.get(name);
    if (!targets) {
      targets = this.effective(name, 'appenders').map((a) => this.appenders[a]).filter((a): a is DestinationStream => a !== undefined);
      this.routes.set(name, targets);
    }
    for (const t of targets) t.write(line);
  }
}

/** `grid.http` → `grid` → '' (the root). */
function parentOf(name: string): string | undefined {
  if (name === ROOT) return undefined;
  const dot = name.lastIndexOf('.');
  return dot < 0 ? ROOT : name.slice(0, dot);
}

function dropUndefined(s: LoggerSetting): LoggerSetting {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined));
}
