import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/util/package-info';
import { tempDir } from '../support/server';

/**
 * `npm start` builds only when a source changed (scripts/build-if-stale.js). Run here on a copy of
 * the script in a small project whose "compiler" records each call and writes the build record.
 */
describe('npm start: the build step', () => {
  let project: string;
  const calls = () => (existsSync(join(project, 'calls')) ? readFileSync(join(project, 'calls'), 'utf8').split('\n').filter(Boolean).length : 0);
  const run = () => spawnSync(process.execPath, [join(project, 'scripts', 'build-if-stale.js')], { encoding: 'utf8' });
  const age = (path: string, seconds: number) => { const t = new Date(Date.now() - seconds * 1000); utimesSync(path, t, t); };

  beforeEach(() => {
    project = tempDir('grid-build-');
    for (const dir of ['scripts', 'src', 'test', 'node_modules/typescript/bin']) mkdirSync(join(project, dir), { recursive: true });
    copyFileSync(join(packageRoot(), 'scripts', 'build-if-stale.js'), join(project, 'scripts', 'build-if-stale.js'));
    writeFileSync(join(project, 'tsconfig.json'), '{}');
    writeFileSync(join(project, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(project, 'node_modules/typescript/bin/tsc'), [
      "const { appendFileSync, mkdirSync, writeFileSync } = require('node:fs');",
      "const { join } = require('node:path');",
      `const root = ${JSON.stringify(project)};`,
      "appendFileSync(join(root, 'calls'), process.argv.slice(2).join(' ') + '\\n');",
      "mkdirSync(join(root, 'dist'), { recursive: true });",
      "writeFileSync(join(root, 'dist', '.tsbuildinfo'), '{}');",
    ].join('\n'));
  });

  afterEach(() => rmSync(project, { recursive: true, force: true }));

  it('builds when there is no build yet, then leaves an up-to-date build alone', () => {
    expect(run().status).to.equal(0);
    expect(calls()).to.equal(1);
    const record = statSync(join(project, 'dist', '.tsbuildinfo')).mtimeMs;
    expect(run().status).to.equal(0);
    expect(calls()).to.equal(1);
    expect(statSync(join(project, 'dist', '.tsbuildinfo')).mtimeMs).to.equal(record);
  });

  it('builds again when a source under src/ or test/ changed after the build', () => {
    expect(run().status).to.equal(0);
    age(join(project, 'dist', '.tsbuildinfo'), 60);
    writeFileSync(join(project, 'test', 'b.test.ts'), 'export {};\n');
    expect(run().status).to.equal(0);
    expect(calls()).to.equal(2);
    expect(run().status).to.equal(0);
    expect(calls()).to.equal(2);
  });

  it('passes a failed build on as its exit code', () => {
    writeFileSync(join(project, 'node_modules/typescript/bin/tsc'), 'process.exitCode = 2;');
    expect(run().status).to.equal(2);
  });
});
