import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '../support/client';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir } from '../support/server';
import { needTool } from '../support/tools';

const PUTS = 20;

/** strace present and allowed to trace (containers may forbid ptrace): otherwise the check is skipped. */
function straceWorks(): boolean {
  const r = spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', 'true'], { stdio: 'ignore' });
  return r.status === 0;
}

/**
 * Runs a real `bin/grid start` under `strace -f -y` (system calls with the files their descriptors
 * name), makes PUTS sequential acknowledged writes to a persistent cache and reads whether each
 * `HTTP/1.1 204` answer (written by the event loop's thread, where SQLite writes the WAL) came
 * after the WAL was written and then fsynced (fsync or fdatasync, on any thread).
 */
async function acknowledgements(durability: 'power' | 'process'): Promise<boolean[]> {
  const dir = tempDir('grid-fsync-');
  const trace = join(dir, 'strace.out');
  const dataDir = join(dir, 'data');
  try {
    const wrapper = ['strace', '-f', '-y', '-qq', '-s', '16', '-e', 'trace=fsync,fdatasync,pwrite64,write,writev,sendto,sendmsg', '-o', trace];
    const proc = await spawnServer(['--data', dataDir, '--durability', durability], { APP_USER: 'ops', APP_PASS: 'ops-pw' }, wrapper);
    // the server is strace's child: signals go to it, and strace ends with it
    const server = childOf(proc.child.pid!);
    try {
      const http = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      await http.createCache('synced', { 'local-cache': { persistence: { 'file-store': {} } } });
      for (let i = 0; i < PUTS; i++) expect((await http.put(`/rest/v2/caches/synced/k${i}`, `value ${i}`, { 'Content-Type': 'text/plain' })).status).to.equal(204);
    } finally {
      process.kill(server, 'SIGTERM');
      await waitForExit(proc.child);
    }
    return readAcknowledgements(readFileSync(trace, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The process whose parent is `pid` (from /proc/<n>/stat: `pid (comm) state ppid …`). */
function childOf(pid: number): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no child of ${pid}`);
}

/**
 * For each `HTTP/1.1 204` written to a socket: was the WAL written and then synced since the
 * previous answer? The sync may run on any thread of the server (grid fdatasyncs the WAL on the
 * thread pool); it counts once it has returned: its own line, or its `resumed` line when strace
 * split it around another thread's call.
 */
function readAcknowledgements(trace: string): boolean[] {
  const lines = trace.split('\n');
  const call = (line: string) => /^(\d+)\s+(\w+)\(\d+<(.+?)>(?:[,)]| <unfinished)(.*)$/.exec(line);
  const socket = (file: string) => file.startsWith('socket:') || file.startsWith('TCP');
  const mainThread = lines.map(call).find((m) => m && socket(m[3]) && m[4].includes('HTTP/1.1'))?.[1];
  expect(mainThread, 'no HTTP answer in the trace').to.not.equal(undefined);
  const answers: boolean[] = [];
  let writes = 0; // WAL writes so far
  let written = false; // a WAL write since the previous answer
  let synced = 0; // WAL writes covered by a sync that has returned
  const syncing = new Map<string, number>(); // thread → WAL writes before its unfinished sync began
  for (const line of lines) {
    const resumed = /^(\d+)\s+<\.\.\. (?:fsync|fdatasync) resumed>/.exec(line);
    if (resumed) {
      const covered = syncing.get(resumed[1]);
      if (covered !== undefined) synced = Math.max(synced, covered);
      syncing.delete(resumed[1]);
      continue;
    }
    const m = call(line);
    if (!m) continue;
    const [, thread, name, file, rest] = m;
    const wal = file.endsWith('grid.db-wal');
    if (wal && name === 'pwrite64' && thread === mainThread) {
      writes++;
      written = true;
    } else if (wal && (name === 'fsync' || name === 'fdatasync')) {
      if (line.includes('<unfinished')) syncing.set(thread, writes);
      else synced = writes;
    } else if (thread === mainThread && socket(file) && rest.includes('HTTP/1.1 204')) {
      answers.push(written && synced === writes);
      written = false;
    }
  }
  return answers;
}

describe('--durability power: the WAL is fsynced before each acknowledgement (strace)', function () {
  this.timeout(120_000);

  before(function () {
    needTool(this, 'strace', 'watching the WAL being fsynced', '-V');
    if (!straceWorks()) {
      console.log('      strace may not trace processes here (no ptrace permission): skipped');
      this.skip();
    }
  });

  it('answers every write only after an fsync of the WAL that holds it', async () => {
    const power = await acknowledgements('power');
    expect(power).to.have.length(PUTS);
    expect(power.every(Boolean), JSON.stringify(power)).to.equal(true);
  });

  it('tells the difference: --durability process (synchronous=NORMAL) answers without syncing the WAL', async () => {
    const process = await acknowledgements('process');
    expect(process).to.have.length(PUTS);
    expect(process.some((synced) => !synced), JSON.stringify(process)).to.equal(true);
  });
});
