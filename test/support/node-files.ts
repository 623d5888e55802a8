import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerUnderTest } from './server';

/**
 * The data dirs of `server`'s nodes where `path` (relative to a data dir) exists: a backup's archive
 * is a file on the node that wrote it, whichever got the request (docs/scale-out.md, "Backups and restores").
 */
export function holders(server: ServerUnderTest, ...path: string[]): string[] {
  return server.nodes.map((node) => node.services.dataDir).filter((dir) => existsSync(join(dir, ...path)));
}

/** Makes `path` (relative to a data dir) a directory in every node's data dir of `server`. */
export function mkdirOnEveryNode(server: ServerUnderTest, ...path: string[]): void {
  for (const node of server.nodes) mkdirSync(join(node.services.dataDir, ...path), { recursive: true });
}
