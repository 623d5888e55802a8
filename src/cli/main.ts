import { ConfigError } from '../config/server-config';
import { GridError } from '../errors';
import { UsageError } from './args';
import { runBackup } from './backup.command';
import { runMigrate } from './migrate.command';
import { runStart } from './start.command';
import { USAGE } from './usage';
import { runUser } from './user.command';

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'start': return await runStart(rest);
      case 'user': return await runUser(rest);
      case 'migrate': return runMigrate(rest);
      case 'backup': return await runBackup(rest);
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
