import { expect } from 'chai';
import { execFile, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot, packageVersion } from '../../src/util/package-info';
import { cleanEnv } from '../support/cli';
import { documentationFiles, fencesOf, inlineGridCommands, looksLikeCommand, SHELL, type Fence } from '../support/markdown-examples';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir } from '../support/server';

const run = promisify(execFile);
const root = packageRoot();
const fences = documentationFiles(root).flatMap((file) => fencesOf(root, file));
const runnable = fences.filter((f) => SHELL.has(f.lang) && f.referenceOnly === undefined);

/**
 * Every shell example of README.md and docs/*.md runs as written (docs/cli.md, Getting grid on the
 * PATH): `grid` is put on the PATH by `npm link`, as a reader would, and each example runs with
 * bash -e in a fresh folder against a fresh server whose URL and credentials are in GRID_SERVER,
 * GRID_USER and GRID_PASSWORD. An example that cannot run here says why, in the doc, on the line
 * above its fence: `<!-- reference-only: REASON -->`.
 */
describe('the shell examples of README.md and docs/*.md', function () {
  this.timeout(180_000);
  let prefix: string;
  let bin: string;

  before(async () => {
    prefix = tempDir('grid-npm-prefix-');
    await run('npm', ['link', '--no-audit', '--no-fund'], { cwd: root, env: { ...process.env, npm_config_prefix: prefix } });
    bin = join(prefix, 'bin');
  });
  after(() => rmSync(prefix, { recursive: true, force: true }));

  it('each is a shell fence that runs, or is marked reference-only with a reason', () => {
    expect(runnable.length, 'examples that run').to.be.greaterThan(4);
    for (const f of fences) {
      const where = `${f.file}:${f.line}`;
      if (f.referenceOnly !== undefined) {
        expect(SHELL.has(f.lang), `${where}: reference-only marks a shell example`).to.equal(true);
        expect(f.referenceOnly, `${where}: reference-only needs a reason`).to.not.equal('');
      }
      if (!SHELL.has(f.lang) && f.lang !== 'text') expect(looksLikeCommand(f.body), `${where}: commands in a '${f.lang}' fence: tag it sh (then it runs, or is marked reference-only), or text for output`).to.equal(false);
    }
  });

  it('`npm link` puts grid on the PATH, and `npx grid` resolves to this package inside the clone', async () => {
    const version = `grid ${packageVersion()}\n`;
    expect((await run(join(bin, 'grid'), ['--version'], { cwd: tempDir() })).stdout).to.equal(version);
    expect((await run('npx', ['--no-install', 'grid', '--version'], { cwd: join(root, 'docs') })).stdout).to.equal(version);
  });

  it('every `grid …` in tables and prose names a command, and flags its --help lists', async () => {
    const helps = new Map<string, string>();
    const spans = documentationFiles(root).flatMap((file) => inlineGridCommands(root, file));
    expect(spans.length).to.be.greaterThan(20);
    for (const span of spans) {
      const command = /^grid ([a-z][a-z-]*)(?:\s|$)/.exec(span.text)?.[1];
      if (!command) continue; // `grid --help`, `grid <command> --help`, output such as `grid <version> listening …`
      if (!helps.has(command)) helps.set(command, (await run(process.execPath, [join(root, 'bin', 'grid'), command, '--help'])).stdout);
      const help = helps.get(command)!;
      for (const flag of span.text.match(/(?<![\w-])--?[A-Za-z][\w-]*/g) ?? []) {
        const asListed = /^-[A-Za-z]/.test(flag) && !flag.startsWith('--') ? flag.slice(0, 2) : flag;
        expect(help, `${span.file}:${span.line} \`${span.text}\`: 'grid ${command} --help' lists no ${asListed}`).to.include(asListed);
      }
    }
  });

  for (const example of runnable) {
    it(`${example.file}:${example.line} runs as written`, async () => runExample(example, bin));
  }
});

async function runExample(example: Fence, bin: string): Promise<void> {
  const dataDir = tempDir();
  const cwd = tempDir('grid-example-');
  const server = await spawnServer(['--data', dataDir], { APP_USER: 'admin', APP_PASS: 'admin-pw' });
  try {
    const env = cleanEnv({ PATH: `${bin}:${process.env.PATH}`, HOME: cwd, GRID_SERVER: server.url, GRID_USER: 'admin', GRID_PASSWORD: 'admin-pw' });
    const r = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', example.body], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c: Buffer) => { output += c.toString(); });
      child.stderr.on('data', (c: Buffer) => { output += c.toString(); });
      const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
      child.on('error', reject);
      child.on('close', (code) => { clearTimeout(timer); resolve({ code, output }); });
    });
    expect(r.code, `${example.file}:${example.line}\n${example.body}\n--- output ---\n${r.output}`).to.equal(0);
  } finally {
    server.child.kill('SIGTERM');
    await waitForExit(server.child);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}
