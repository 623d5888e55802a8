import { resolve } from 'node:path';
import { migrate } from '../store/migrate';
import { migrationsDir, openDatabase } from '../store/sqlite-store';
import { parse, UsageError } from './args';
import { USAGE } from './usage';

/** `grid migrate` (also `npm run migrate`). */
export function runMigrate(args: string[]): number {
  const { values, positionals } = parse(args, { data: { type: 'string' } });
  if (values.help) {
    process.stdout.write(USAGE.migrate + '\n');
    return 0;
  }
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const dir = resolve((values.data as string | undefined) ?? './data');
  const db = openDatabase(dir, 'power');
  try {
    const { applied, version } = migrate(db, migrationsDir());
    process.stdout.write(applied.length ? `applied ${applied.join(', ')}; schema version ${version}\n` : `schema is up to date (version ${version})\n`);
    return 0;
  } finally {
    db.close();
  }
}
