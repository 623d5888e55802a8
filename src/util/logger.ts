import { join } from 'node:path';
import pino, { type DestinationStream, type Logger } from 'pino';
import { LoggerRegistry } from './logger-registry';
import { LogFile } from './log-file';
import { defaultLogFormat, formatPretty, type LogFormat } from './log-format';
import { ensurePrivateDir } from './private-files';
import { standardOutput } from './standard-output';

export type { Logger };

export interface LogOptions {
  level: string;
  /** Data directory: the JSON-FILE appender writes `log/server.log.json` (rotated at 10 MB, 5 kept). */
  dataDir: string;
  /** Replaces standard output as the STDOUT appender (tests read what is logged); it gets JSON lines. */
  stdout?: DestinationStream;
  /** How the STDOUT appender writes to standard output; by default pretty on a terminal, JSON otherwise. */
  format?: LogFormat;
}

/**
 * The REST access log's logger, named as the original's. Its lines are written at TRACE and it is
 * declared at INFO, as the original's log4j2.xml declares it, so it is off until an operator sets
 * it to TRACE (API or configuration file); a root logger at TRACE does not turn it on.
 */
export const REST_ACCESS_LOG = 'org.infinispan.REST_ACCESS_LOG';

const FILE_MAX_BYTES = 10 * 1024 * 1024;
const FILE_KEEP = 5;

/** The appenders (STDOUT, JSON-FILE) and the named loggers of one server. */
export function createLoggerRegistry(opts: LogOptions): LoggerRegistry {
  const dir = join(opts.dataDir, 'log');
  ensurePrivateDir(dir);
  const file = new LogFile({ dir, name: 'server.log.json', maxBytes: FILE_MAX_BYTES, keep: FILE_KEEP });
  const fileAppender: DestinationStream & { end: () => Promise<void> } = {
    write: (line: string) => file.write(line),
    end: async () => file.close(),
  };
  const registry = new LoggerRegistry({ STDOUT: opts.stdout ?? stdoutAppender(opts.format), 'JSON-FILE': fileAppender }, opts.level as pino.LevelWithSilent);
  registry.configure(REST_ACCESS_LOG, { level: 'INFO' });
  return registry;
}

/** Standard output, each line as it is logged (src/util/standard-output.ts). */
function stdoutAppender(format = defaultLogFormat(process.stdout.isTTY === true)): DestinationStream {
  const out = standardOutput();
  const render = format === 'pretty' ? formatPretty : (line: string) => line;
  out.onCaughtUp = (dropped) => out.write(render(JSON.stringify({
    level: 40, time: new Date().toISOString(), logger: 'grid', dropped, msg: 'standard output was not read fast enough: log lines dropped',
  }) + '\n'));
  return { write: (line: string) => out.write(render(line)) };
}
