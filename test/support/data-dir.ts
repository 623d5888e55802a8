import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { VOLATILE_INDEX_FILE } from '../../src/store/sqlite-volatile-index';
import { TWO_NODES } from './two-node-engine';

/**
 * Each file of the data directory and a hash of its bytes. Not data: SQLite's shared-memory index,
 * and — on the redis engine — the node's own query index (volatile-index.db*), which it brings up
 * to date with the cluster's writes whenever it likes and rebuilds at every start.
 */
export function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.endsWith('-shm') && !(TWO_NODES && name.startsWith(VOLATILE_INDEX_FILE))) out[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir);
  return out;
}
