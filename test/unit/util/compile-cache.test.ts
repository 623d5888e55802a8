import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const COMPILE_CACHE = join(__dirname, '..', '..', '..', 'src', 'util', 'compile-cache.js');

describe('compile cache', function () {
  this.timeout(30_000);
  let pkg: string;

  beforeEach(() => {
    pkg = mkdtempSync(join(tmpdir(), 'grid-compile-cache-'));
    mkdirSync(join(pkg, 'dist', 'lib'), { recursive: true });
    writeFileSync(join(pkg, 'dist', 'lib', 'a.js'), "exports.value = () => 'one' + require('./b').suffix;\n");
    writeFileSync(join(pkg, 'dist', 'lib', 'b.js'), "exports.suffix = '!'; exports.dir = __dirname; exports.resolved = require.resolve('./a');\n");
  });
  afterEach(() => rmSync(pkg, { recursive: true, force: true }));

  /** A process that enables the cache, loads the package's modules and ends its start-up. */
  function run(): { out: string; files: string[] } {
    const script = `
      const cc = require(${JSON.stringify(COMPILE_CACHE)});
      cc.enableCompileCache(${JSON.stringify(pkg)});
      const a = require(${JSON.stringify(join(pkg, 'dist', 'lib', 'a.js'))});
      const b = require(${JSON.stringify(join(pkg, 'dist', 'lib', 'b.js'))});
      cc.compileCacheStartupDone();
      process.stdout.write(JSON.stringify([a.value(), b.dir, b.resolved]));`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(r.stderr).to.equal('');
    return { out: r.stdout, files: readdirSync(join(pkg, 'dist')).filter((f) => f.startsWith('.compile-cache')) };
  }

  it('keeps the compiled code of the modules a start loaded, and the modules behave the same with it', function () {
    if (typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function') this.skip(); // Node's own cache
    const expected = JSON.stringify(['one!', join(pkg, 'dist', 'lib'), join(pkg, 'dist', 'lib', 'a.js')]);
    const first = run();
    expect(first.out).to.equal(expected);
    expect(first.files).to.have.length(1);
    const file = join(pkg, 'dist', first.files[0]);
    const written = statSync(file).mtimeMs;
    const second = run();
    expect(second.out).to.equal(expected);
    expect(statSync(file).mtimeMs, 'nothing new to keep: not rewritten').to.equal(written);
  });

  it('compiles a changed file again, even one of the same length', function () {
    if (typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function') this.skip();
    expect(run().out).to.contain('one!');
    writeFileSync(join(pkg, 'dist', 'lib', 'a.js'), "exports.value = () => 'two' + require('./b').suffix;\n");
    expect(run().out).to.contain('two!');
    expect(run().out).to.contain('two!');
  });

  it('ignores a cache file that other users may write', function () {
    if (typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function') this.skip();
    const [name] = run().files;
    const file = join(pkg, 'dist', name);
    chmodSync(file, 0o666);
    expect(run().out).to.contain('one!');
    expect(statSync(file).mode & 0o022, 'not used, so written again, by its owner only').to.equal(0);
  });
});
