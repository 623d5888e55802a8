'use strict';
// `npm start`: runs the TypeScript build only when a source changed since the last build. `tsc -b`
// decides the same by itself, but loading the compiler to learn that nothing changed costs about
// a second of CPU; a look at the sources' change times costs a few milliseconds.
const { spawnSync } = require('node:child_process');
const { readdirSync, statSync, utimesSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const RECORD = join(root, 'dist', '.tsbuildinfo');

/**
 * The latest change time of what tsconfig.json compiles (src/ and test/ *.ts) and of tsconfig.json
 * itself. The change time (ctime), not the modification time: a file moved or checked out keeps
 * an older mtime.
 */
function lastChange() {
  let latest = statSync(join(root, 'tsconfig.json')).ctimeMs;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) latest = Math.max(latest, statSync(path).ctimeMs);
    }
  };
  walk(join(root, 'src'));
  walk(join(root, 'test'));
  return latest;
}

function isStale() {
  try {
    return lastChange() > statSync(RECORD).mtimeMs;
  } catch {
    return true;
  }
}

if (isStale()) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-b', join(root, 'tsconfig.json')], { stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
  // tsc -b leaves its record alone when the contents did not change (a file touched, moved back)
  const now = new Date();
  if (r.status === 0) utimesSync(RECORD, now, now);
}
