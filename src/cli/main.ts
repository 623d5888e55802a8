import { ConfigError } from '../config/server-config';
import { GridError } from '../errors';
import { unknownCommand, UsageError } from './args';
import { CommandFailure, EXIT } from './failure';
import { USAGE } from './usage';

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      // each command loads only its own modules: start-up time is mostly module loading
      case 'start': return await (require('./start.command') as typeof import('./start.command')).runStart(rest);
      case 'user': return await (require('./user.command') as typeof import('./user.command')).runUser(rest);
      case 'migrate': return (require('./migrate.command') as typeof import('./migrate.command')).runMigrate(rest);
      case 'redis-cluster': return await (require('./redis-cluster.command') as typeof import('./redis-cluster.command')).runRedisCluster(rest);

      // clients of a running server, over its REST API only (docs/cli.md)
      case 'stop': return await (require('./stop.command') as typeof import('./stop.command')).runStop(rest);
      case 'cache': return await (require('./cache.command') as typeof import('./cache.command')).runCache(rest);
      case 'get': case 'put': case 'rm': case 'keys':
        return await (require('./entry.command') as typeof import('./entry.command')).runEntry(command, rest);
      case 'query': return await (require('./query.command') as typeof import('./query.command')).runQuery(rest);
      case 'schema': return await (require('./schema.command') as typeof import('./schema.command')).runSchema(rest);
      case 'counter': return await (require('./counter.command') as typeof import('./counter.command')).runCounter(rest);
      case 'task': return await (require('./task.command') as typeof import('./task.command')).runTask(rest);
      case 'backup': return await (require('./backup.command') as typeof import('./backup.command')).runBackup(rest);
      case 'restore': return await (require('./backup.command') as typeof import('./backup.command')).runRestore(rest);

      case '--version': case '-V': case 'version':
        process.stdout.write(`grid ${(require('../util/package-info') as typeof import('../util/package-info')).packageVersion()}\n`);
        return 0;
      case undefined: case '-h': case '--help': case 'help':
        process.stdout.write(USAGE.main + '\n');
        return command === undefined ? 2 : 0;
      default: throw unknownCommand(command, COMMANDS);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`grid: ${err.message}\nRun 'grid ${command && USAGE[command] ? command + ' ' : ''}--help' for usage.\n`);
      return EXIT.usage;
    }
    if (err instanceof CommandFailure) {
      process.stderr.write(`grid: ${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof ConfigError || err instanceof GridError) {
      process.stderr.write(`grid: ${err.message}\n`);
      return err instanceof GridError ? 1 : 2;
    }
    // a bug, not a user's mistake: still one line; GRID_DEBUG=1 shows where
    process.stderr.write(`grid: unexpected error: ${err instanceof Error ? err.message : String(err)}${process.env.GRID_DEBUG ? `\n${(err as Error).stack}` : ' (GRID_DEBUG=1 shows where)'}\n`);
    return EXIT.failed;
  }
}

const COMMANDS = ['start', 'user', 'migrate', 'redis-cluster', 'stop', 'cache', 'get', 'put', 'rm', 'keys', 'query', 'schema', 'counter', 'task', 'backup', 'restore', 'version', 'help'];
