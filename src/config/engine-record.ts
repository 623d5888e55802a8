import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineOverrides, RedisEngineConfig } from './engine-config';
import { ConfigError } from './server-config-error';

/**
 * The engine a node last started on, recorded in its data directory (docs/scale-out.md, "Users
 * from the CLI") so that `grid user --data DIR` writes users where that node reads them, with no
 * engine flags. It holds the cluster's seeds, namespace, TLS files and the password's file — never
 * the password itself. A start on the SQLite engine removes it.
 */
export const ENGINE_RECORD_FILE = 'engine.json';

export function recordEngine(dataDir: string, engine: RedisEngineConfig | undefined): void {
  const file = join(dataDir, ENGINE_RECORD_FILE);
  if (!engine) {
    rmSync(file, { force: true });
    return;
  }
  const { nodes, namespace, tls, passwordFile } = engine;
  writeFileSync(file, JSON.stringify({ type: 'redis', nodes, namespace, tls, passwordFile }, null, 2) + '\n', { mode: 0o600 });
}

/** The engine recorded in `dataDir`, as settings the flags and files may override; undefined: none recorded. */
export function recordedEngine(dataDir: string): EngineOverrides | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, ENGINE_RECORD_FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const r = JSON.parse(text) as { nodes: RedisEngineConfig['nodes']; namespace?: string; tls?: RedisEngineConfig['tls']; passwordFile?: string };
    return { type: 'redis', nodes: r.nodes, namespace: r.namespace, tls: r.tls, passwordFile: r.passwordFile };
  } catch (err) {
    throw new ConfigError(`${join(dataDir, ENGINE_RECORD_FILE)} is not the engine record a node writes (${(err as Error).message}): remove it, or start the node again`);
  }
}
