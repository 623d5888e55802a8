import pino, { Logger } from 'pino';

export type { Logger };

export interface LoggerOptions {
  level?: string;
  /** Where lines go; defaults to stdout (asynchronously buffered, flushed on exit). */
  destination?: pino.DestinationStream;
}

/** The root logger; every part of the server logs through a named child (`grid.http`, `grid.store`, …). */
export function createRootLogger(opts: LoggerOptions = {}): Logger {
  const destination = opts.destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 });
  return pino({
    name: 'grid',
    level: opts.level ?? 'info',
    base: undefined,
    redact: { paths: ['authorization', 'headers.authorization', 'req.headers.authorization'], censor: '[redacted]' },
  }, destination);
}

export function childLogger(root: Logger, name: string): Logger {
  return root.child({ logger: name });
}
