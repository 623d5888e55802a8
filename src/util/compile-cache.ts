import * as crypto from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * Start-up time is mostly module compilation: about 370 CommonJS files before the first answer.
 * This keeps V8's compiled code of the files a start loads in one file next to the code,
 * `dist/.compile-cache-<node version>-<arch>-<hash of node's flags>`, and gives each file its code
 * back on the next start — what Node 22's `module.enableCompileCache()` does, which is used
 * instead where it exists.
 *
 * A file's entry is used only for the same text (SHA-1) and the same V8 (version and flags, which
 * V8 checks itself); otherwise the file is compiled as usual, and once the start is done
 * (`compileCacheStartupDone`) the cache is written again, whole, through a rename. The cache is
 * code: it is written only where the user running grid may write the code, and read only when it
 * belongs to that user (or root) and nobody else may write it.
 */

interface CompileHook {
  _compile(this: Module, content: string, filename: string, ...rest: unknown[]): unknown;
}
interface ModuleStatics {
  enableCompileCache?: (dir: string) => unknown;
  wrap(content: string): string;
  _resolveFilename(request: string, parent: Module, isMain: boolean, options?: unknown): string;
  _resolveLookupPaths(request: string, parent: Module): string[] | null;
  _extensions: unknown;
  _cache: unknown;
}

interface Compiled { filename: string; sha1: string; script: Script }

const FORMAT = 1;
let file = '';
let root = '';
let stored: Map<string, { sha1: string; data: Buffer }> | undefined;
let compiled: Compiled[] | undefined;
let missed = 0;

/** Installs the cache for the CommonJS files under `packageDir` (the folder of package.json). */
export function enableCompileCache(packageDir: string): void {
  const statics = Module as unknown as ModuleStatics;
  if (typeof statics.enableCompileCache === 'function') {
    statics.enableCompileCache(join(packageDir, 'dist', '.compile-cache'));
    return;
  }
  root = packageDir.endsWith('/') ? packageDir : packageDir + '/';
  // V8 refuses code made under other flags: one file per set, so that runs with other flags (the
  // tests' node bin/grid, bin/grid's own) do not overwrite each other's
  const flags = sha1Of(JSON.stringify([process.execArgv, process.env.NODE_OPTIONS ?? ''])).slice(0, 8);
  file = join(packageDir, 'dist', `.compile-cache-${process.version}-${process.arch}-${flags}`);
  stored = readCache(file);
  compiled = [];
  const proto = Module.prototype as unknown as CompileHook;
  const original = proto._compile;
  proto._compile = function (content, filename, ...rest) {
    const entries = compiled;
    if (!entries || !filename.startsWith(root) || !filename.endsWith('.js') || rest[0] === 'module' || /^[#\uFEFF]/.test(content)) {
      return original.call(this, content, filename, ...rest);
    }
    let sha1: string;
    try {
      sha1 = sha1Of(content);
    } catch {
      return original.call(this, content, filename, ...rest); // no SHA-1 here (FIPS): no cache
    }
    const cached = stored?.get(filename);
    let script: Script;
    try {
      script = new Script(statics.wrap(content), { filename, cachedData: cached?.sha1 === sha1 ? cached.data : undefined });
    } catch {
      return original.call(this, content, filename, ...rest); // not a script (ES module syntax): Node's own way decides
    }
    if (!cached || cached.sha1 !== sha1 || script.cachedDataRejected) missed++;
    entries.push({ filename, sha1, script });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, requireOf(this, statics), this, filename, dirname(filename));
  };
}

/**
 * The start is done: writes the cache when a file was compiled without it, and lets go of what it
 * held. Files loaded from now on are compiled as usual.
 */
export function compileCacheStartupDone(): void {
  const entries = compiled;
  compiled = undefined;
  stored = undefined;
  if (!entries || missed === 0) return;
  try {
    writeCache(file, entries);
  } catch {
    // a read-only installation: each start compiles, as without the cache
  }
}

/** `crypto.hash` where it exists (Node 20.12), one call cheaper than a Hash object. */
function sha1Of(text: string): string {
  const oneShot = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;
  return oneShot ? oneShot('sha1', text) : crypto.createHash('sha1').update(text).digest('hex');
}

/** The `require` a CommonJS module gets (Node's makeRequireFunction, without policy redirects). */
function requireOf(mod: Module, statics: ModuleStatics): NodeJS.Require {
  const require = ((id: string) => mod.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: unknown) => statics._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => statics._resolveLookupPaths(request, mod);
  require.resolve = resolve;
  require.main = process.mainModule;
  (require as { extensions: unknown }).extensions = statics._extensions;
  (require as { cache: unknown }).cache = statics._cache;
  return require;
}

/** Layout: u32 length of the JSON index, the index `{format, entries: [file, sha1, offset, length][]}`, the code blobs. */
function readCache(path: string): Map<string, { sha1: string; data: Buffer }> | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    const uid = process.getuid?.();
    if ((uid !== undefined && st.uid !== uid && st.uid !== 0) || (st.mode & 0o022) !== 0 || !st.isFile()) return undefined;
    const all = Buffer.allocUnsafe(st.size);
    if (readSync(fd, all, 0, st.size, 0) !== st.size) return undefined;
    const indexLength = all.readUInt32LE(0);
    const index = JSON.parse(all.toString('utf8', 4, 4 + indexLength)) as { format: number; entries: Array<[string, string, number, number]> };
    if (index.format !== FORMAT) return undefined;
    const base = 4 + indexLength;
    return new Map(index.entries.map(([name, sha1, at, length]) => [name, { sha1, data: all.subarray(base + at, base + at + length) }]));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function writeCache(path: string, entries: Compiled[]): void {
  const blobs: Buffer[] = [];
  const index: Array<[string, string, number, number]> = [];
  let at = 0;
  for (const e of entries) {
    const data = e.script.createCachedData();
    index.push([e.filename, e.sha1, at, data.length]);
    blobs.push(data);
    at += data.length;
  }
  const json = Buffer.from(JSON.stringify({ format: FORMAT, entries: index }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o644);
  try {
    try {
      for (const part of [length, json, ...blobs]) { // written part by part: no copy of the whole
        for (let at = 0; at < part.length;) at += writeSync(fd, part, at);
      }
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true }); // a full disk leaves no half-written file next to the code
    throw err;
  }
}
