import { ConfigError } from '../config/server-config';
import { GridError } from '../errors';
import { UsageError } from './args';
import { USAGE } from './usage';

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      // each command loads only its own modules: start-up time is mostly module loading
      case 'start': return await (require('./start.command') as typeof import('./start.command')).runStart(rest);
      case 'user': return await (require('./user.command') as typeof import('./user.command')).runUser(rest);
      case 'migrate': return (require('./migrate.command') as typeof import('./migrate.command')).runMigrate(rest);
      case 'backup': return await (require('./backup.command') as typeof import('./backup.command')).runBackup(rest);
      case undefined: case '-h': case '--help': case 'help':
        process.stdout.write(USAGE.main + '\n');
        return command === undefined ? 2 : 0;
      default: throw new UsageError(`unknown command '${command}'`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`grid: ${err.message}\nRun 'grid ${command && USAGE[command] ? command + ' ' : ''}--help' for usage.\n`);
      return 2;
    }
    if (err instanceof ConfigError || err instanceof GridError) {
      process.stderr.write(`grid: ${err.message}\n`);
      return err instanceof GridError ? 1 : 2;
    }
    throw err;
  }
}
