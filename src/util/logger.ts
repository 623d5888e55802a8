import { join } from 'node:path';
import pino, { type DestinationStream, type Logger } from 'pino';
import { createStream } from 'rotating-file-stream';
import { LoggerRegistry } from './logger-registry';
import { ensurePrivateDir, narrowTree, PRIVATE_FILE_MODE } from './private-files';

export type { Logger };

export interface LogOptions {
  level: string;
  /** Data directory: the JSON-FILE appender writes `log/server.log.json` (rotated at 10 MB, 5 kept). */
  dataDir: string;
  /** Replaces standard output as the STDOUT appender (tests read what is logged). */
  stdout?: DestinationStream;
}

/**
 * The REST access log's logger, named as the original's. Its lines are written at TRACE and it is
 * declared at INFO, as the original's log4j2.xml declares it, so it is off until an operator sets
 * it to TRACE (API or configuration file); a root logger at TRACE does not turn it on.
 */
export const REST_ACCESS_LOG = 'org.infinispan.REST_ACCESS_LOG';

const FILE_BATCH = 64 * 1024;
const FILE_FLUSH_MS = 200;

/** The appenders (STDOUT, JSON-FILE) and the named loggers of one server. */
export function createLoggerRegistry(opts: LogOptions): LoggerRegistry {
  const stdout = opts.stdout ?? pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const dir = join(opts.dataDir, 'log');
  ensurePrivateDir(dir);
  const file = createStream('server.log.json', { path: dir, size: '10M', maxFiles: 5, mode: PRIVATE_FILE_MODE });
  // rotated files keep their mode (rename); the history file is written with the default one
  const narrow = () => { try { narrowTree(dir); } catch { /* the appender reports its own failures */ } };
  file.on('history', narrow);
  file.on('rotated', narrow);
  let failed = false;
  file.on('error', (err: Error) => {
    if (!failed) process.stderr.write(`grid: the JSON-FILE log appender failed and stops writing: ${err.message}\n`);
    failed = true;
  });
  // rotating-file-stream writes each chunk with its own async fs call: hand it batches instead
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending && !failed) file.write(pending);
    pending = '';
  };
  const fileAppender: DestinationStream & { end: () => Promise<void>; flushSync: () => void } = {
    write: (line: string) => {
      pending += line;
      if (pending.length >= FILE_BATCH) flush();
      else if (!timer) timer = setTimeout(flush, FILE_FLUSH_MS).unref();
    },
    flushSync: flush,
    end: () => {
      flush();
      return new Promise<void>((resolve) => file.end(() => resolve()));
    },
  };
  const registry = new LoggerRegistry({ STDOUT: stdout, 'JSON-FILE': fileAppender }, opts.level as pino.LevelWithSilent);
  registry.configure(REST_ACCESS_LOG, { level: 'INFO' });
  return registry;
}
