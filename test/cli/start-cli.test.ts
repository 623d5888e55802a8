import { expect } from 'chai';
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/sqlite-store';
import { SqliteUserStore } from '../../src/store/sqlite-user.store';
import { runGrid } from '../support/cli';
import { Client } from '../support/client';
import { GRID_BIN, spawnServer, waitForExit } from '../support/process';
import { tempDir } from '../support/server';
import { needTool } from '../support/tools';

/** A port held by another listener of this process. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

/** A port that was free a moment ago. */
async function freePort(): Promise<number> {
  const { port, server } = await occupiedPort();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits until `check` holds, asking every 50 ms; fails after `ms` (a generous bound: a stall, not a speed, is what it catches). */
async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`still not the case after ${ms} ms: ${what}`);
}

/** The exit code, or a failure when the process is still running after `ms` (then killed). */
async function exitWithin(child: ChildProcess, ms: number): Promise<number | null> {
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  try {
    const code = await waitForExit(child);
    if (child.signalCode === 'SIGKILL') throw new Error(`still running ${ms} ms after the signal`);
    return code;
  } finally {
    clearTimeout(timer);
  }
}

function storedUserNames(dataDir: string): string[] {
  const db = openDatabase(dataDir, 'process');
  try {
    return new SqliteUserStore(db).list().map((u) => u.name);
  } finally {
    db.close();
  }
}

describe('grid start', function () {
  this.timeout(30_000);
  let data: string;

  beforeEach(() => { data = tempDir('grid-start-'); });
  afterEach(() => rmSync(data, { recursive: true, force: true }));

  describe('on a port another process holds', () => {
    it('says so in one line, exits 2, and neither prints nor stores an admin password', async () => {
      const { port, server } = await occupiedPort();
      try {
        const r = runGrid(['start', '--data', data, '--port', String(port)]);
        expect(r.stderr).to.equal(`grid: port ${port} on 127.0.0.1 is in use by another process: stop it or pass --port\n`);
        expect(r.status).to.equal(2);
        expect(r.stdout).to.not.include('password');
        expect(storedUserNames(data)).to.deep.equal([]);
      } finally {
        server.close();
      }
    });

    it('names the TLS port when that one is taken', async () => {
      const { port, server } = await occupiedPort();
      try {
        const r = runGrid(['start', '--data', data, '--port', '0', '--tls-port', String(port)]);
        expect(r.stderr).to.equal(`grid: TLS port ${port} on 127.0.0.1 is in use by another process: stop it or pass --tls-port\n`);
        expect(r.status).to.equal(2);
        expect(storedUserNames(data)).to.deep.equal([]);
      } finally {
        server.close();
      }
    });
  });

  describe('with standard output closed by its reader (grid start | head -3)', () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      it(`keeps serving while it logs, and stops on ${signal} (exit code 0)`, async () => {
        const port = await freePort();
        const child = spawn(process.execPath, [GRID_BIN, 'start', '--data', data, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
        try {
          let seen = '';
          await new Promise<void>((resolve, reject) => {
            child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
            child.stdout!.on('data', (chunk: Buffer) => {
              seen += chunk.toString();
              if (seen.split('\n').length > 3) resolve();
            });
          });
          child.stdout!.destroy(); // what head does after its third line
          const client = new Client(`http://127.0.0.1:${port}`, { user: 'nobody', password: 'wrong' });
          await eventually(async () => (await client.get('/rest/v2/caches').catch(() => ({ status: 0 }))).status === 401, 'the server answers');
          // the first failed login logs a warning at once (later ones are counted), to the closed output
          for (let i = 0; i < 5; i++) expect((await new Client(client.url, { user: `u${i}`, password: 'x' }).get('/rest/v2/caches')).status).to.equal(401);
          expect((await client.get('/rest/v2/caches')).status).to.equal(401);
          child.kill(signal);
          expect(await exitWithin(child, 15_000)).to.equal(0);
        } finally {
          child.kill('SIGKILL');
        }
      });
    }
  });

  describe('log lines on standard output', () => {
    const spawnLogging = (args: string[] = []) => spawnServer(['--data', data, '--log-level', 'info', ...args], { APP_USER: 'ops', APP_PASS: 'ops-pw' });

    it('arrive as they happen: JSON with an ISO 8601 time when standard output is not a terminal; a failed login at WARN, without its password', async () => {
      const proc = await spawnLogging();
      try {
        // written before the listening line, and seen before it: no block of lines held back
        expect(proc.output().indexOf('"container started"')).to.be.within(0, proc.output().indexOf('listening on'));
        expect((await new Client(proc.url, { user: 'mallory', password: 'not-this-secret' }).get('/rest/v2/caches')).status).to.equal(401);
        await eventually(() => proc.output().includes('"login failed"'), 'the failed login on standard output');
        const line = proc.output().split('\n').find((l) => l.includes('"login failed"'))!;
        const entry = JSON.parse(line) as Record<string, unknown>;
        expect(entry).to.include({ level: 40, logger: 'grid.security', mechanism: 'BASIC', user: 'mallory', client: '127.0.0.1' });
        expect(entry.time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(proc.output()).to.not.include('not-this-secret');
      } finally {
        proc.child.kill('SIGTERM');
        await waitForExit(proc.child);
      }
      expect(readFileSync(join(data, 'log', 'server.log.json'), 'utf8')).to.include('"login failed"').and.not.include('not-this-secret');
    });

    it('--log-format pretty: a local time, the level and the logger first, then the fields', async () => {
      const proc = await spawnLogging(['--log-format', 'pretty']);
      try {
        expect((await new Client(proc.url, { user: 'mallory', password: 'pw' }).get('/rest/v2/caches')).status).to.equal(401);
        await eventually(() => proc.output().includes('login failed'), 'the failed login on standard output');
        expect(proc.output()).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} WARN  \[grid\.security\] login failed mechanism=BASIC user=mallory client=127\.0\.0\.1/m);
        expect(proc.output()).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} INFO  \[grid\.cache\] container started/m);
      } finally {
        proc.child.kill('SIGTERM');
        await waitForExit(proc.child);
      }
    });

    it('are pretty by default on a terminal (run under script(1), which gives it one)', async function () {
      needTool(this, 'script', 'script(1) gives the server a terminal, package bsdutils');
      const command = [process.execPath, GRID_BIN, 'start', '--data', data, '--port', '0', '--log-level', 'info', '--no-auth'].map((a) => `'${a}'`).join(' ');
      const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
      try {
        await eventually(() => /listening on (http:\/\/\S+)/.test(out), 'the listening line');
        expect(out).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} INFO  \[grid\.cache\] container started/m);
        expect(out).to.not.include('"msg"');
        const url = /listening on (http:\/\/\S+)/.exec(out)![1];
        expect((await fetch(`${url}/rest/v2/server?action=stop`, { method: 'POST' })).status).to.equal(204);
        expect(await exitWithin(child, 15_000)).to.equal(0);
      } finally {
        child.kill('SIGKILL');
      }
    });

    it('--log-format with another value is a usage error', () => {
      const r = runGrid(['start', '--data', data, '--log-format', 'xml']);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.include('--log-format xml: expected pretty or json');
    });
  });

  describe('the log file after kill -9', () => {
    it('holds every line logged before, but at most the last one', async () => {
      const proc = await spawnServer(['--data', data], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
      const ops = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      try {
        // the access log: one line per request, written after its answer
        expect((await ops.put('/rest/v2/logging/loggers/org.infinispan.REST_ACCESS_LOG?level=TRACE&appender=JSON-FILE')).status).to.equal(204);
        for (let i = 0; i < 20; i++) expect((await ops.get(`/rest/v2/caches?n=${i}`)).status).to.equal(200);
      } finally {
        proc.child.kill('SIGKILL');
        await waitForExit(proc.child);
      }
      const lines = readFileSync(join(data, 'log', 'server.log.json'), 'utf8').split('\n').filter((l) => l.includes('"path":"/rest/v2/caches"'));
      expect(lines.length).to.be.within(19, 20);
    });
  });
});
