import { expect } from 'chai';
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { until } from '../support/poll';
import { tempDir, useServer, withServer } from '../support/server';

const C = '/rest/v2/container';

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');

/** Every file and directory under `root` with its mode, for readable failures. */
function modesUnder(root: string): Record<string, string> {
  const out: Record<string, string> = { '.': modeOf(root) };
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      out[prefix + name] = modeOf(path);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
    }
  };
  walk(root, '');
  return out;
}

/** Collects the JSON lines a server logs, to read its warnings. */
function logSink(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  let text = '';
  const stream = new Writable({ write(chunk, _enc, done) { text += chunk.toString(); done(); } });
  return { stream, lines: () => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('files in the data directory', () => {
  describe('with a permissive umask (000)', () => {
    let previous: number;
    before(() => { previous = process.umask(0); });
    const server = useServer({ logLevel: 'info', stdout: logSink().stream });

    before(async () => {
      const admin = server.as('admin');
      await admin.createCache('c', { 'local-cache': { persistence: { 'file-store': {} } } });
      expect((await admin.put('/rest/v2/caches/c/k', 'v')).status).to.equal(204);
      expect((await admin.post(`${C}/backups/b1`, '{}', { 'Content-Type': 'application/json' })).status).to.equal(202);
      expect((await until(() => admin.head(`${C}/backups/b1`))).status).to.equal(200);
      const form = new FormData();
      form.append('backup', new Blob([(await admin.get(`${C}/backups/b1`)).bytes], { type: 'application/zip' }), 'b1.zip');
      const restore = await fetch(`${server.url}${C}/restores/r1`, {
        method: 'POST', body: form, headers: { Authorization: 'Basic ' + Buffer.from('admin:admin-pw').toString('base64') },
      });
      expect(restore.status).to.equal(202);
      expect((await until(() => admin.head(`${C}/restores/r1`))).status).to.equal(201);
    });
    after(() => { process.umask(previous); });

    it('creates the data directory 0700 and grid.db with its -wal and -shm 0600', () => {
      expect(modeOf(server.dataDir)).to.equal('0700');
      for (const f of ['grid.db', 'grid.db-wal', 'grid.db-shm']) expect(modeOf(join(server.dataDir, f)), f).to.equal('0600');
    });

    it('creates the credentials key 0600', () => {
      expect(modeOf(join(server.dataDir, 'credentials.key'))).to.equal('0600');
    });

    it('creates log/ 0700 and its log files 0600', () => {
      const log = join(server.dataDir, 'log');
      expect(modeOf(log)).to.equal('0700');
      const files = readdirSync(log);
      expect(files).to.include('server.log.json');
      for (const f of files) expect(modeOf(join(log, f)), f).to.equal('0600');
    });

    it('writes backup archives 0600 in 0700 directories, and uploads for restores likewise', () => {
      expect(modeOf(join(server.dataDir, 'backups'))).to.equal('0700');
      expect(modeOf(join(server.dataDir, 'backups', 'b1'))).to.equal('0700');
      expect(modeOf(join(server.dataDir, 'backups', 'b1', 'b1.zip'))).to.equal('0600');
      expect(modeOf(join(server.dataDir, 'restores'))).to.equal('0700');
    });

    it('leaves nothing under the data directory readable by group or others', () => {
      const modes = modesUnder(server.dataDir);
      const open = Object.entries(modes).filter(([, m]) => (parseInt(m, 8) & 0o077) !== 0);
      expect(open, JSON.stringify(modes)).to.deep.equal([]);
    });
  });

  describe('an existing data directory with wider permissions', () => {
    it('is narrowed at start (directory 0700, grid files 0600) with one warning naming what changed', async () => {
      const dataDir = tempDir();
      chmodSync(dataDir, 0o755);
      await withServer({ dataDir }, async (server) => {
        await server.stop();
        chmodSync(dataDir, 0o755);
        for (const f of ['grid.db', 'credentials.key', 'log/server.log.json']) chmodSync(join(dataDir, f), 0o644);
        chmodSync(join(dataDir, 'log'), 0o755);
        writeFileSync(join(dataDir, 'log', '20261122-0000-01-server.log.json'), '{}\n', { mode: 0o644 });
        mkdirSync(join(dataDir, 'backups', 'old'), { recursive: true, mode: 0o755 });
        writeFileSync(join(dataDir, 'backups', 'old', 'old.zip'), 'zip', { mode: 0o644 });
        writeFileSync(join(dataDir, 'notes.txt'), 'not grid\'s', { mode: 0o644 });

        const sink = logSink();
        await server.start({ logLevel: 'warn', stdout: sink.stream });
        expect(modeOf(dataDir)).to.equal('0700');
        for (const f of ['grid.db', 'credentials.key', 'log/server.log.json', 'log/20261122-0000-01-server.log.json', 'backups/old/old.zip']) {
          expect(modeOf(join(dataDir, f)), f).to.equal('0600');
        }
        for (const d of ['log', 'backups', 'backups/old']) expect(modeOf(join(dataDir, d)), d).to.equal('0700');
        expect(modeOf(join(dataDir, 'notes.txt')), 'a file grid did not create is left alone').to.equal('0644');
        const warnings = sink.lines().filter((l) => String(l.msg).includes('readable by other users'));
        expect(warnings).to.have.length(1);
        expect(JSON.stringify(warnings[0].narrowed)).to.contain('grid.db (was 0644)');
        expect(JSON.stringify(warnings[0].narrowed)).to.contain(`${dataDir} (was 0755)`);
      });
    });

    it('says nothing when everything is already private', async () => {
      const sink = logSink();
      await withServer({}, (server) => server.restart({ logLevel: 'warn', stdout: sink.stream }));
      expect(sink.lines().filter((l) => String(l.msg).includes('readable by other users'))).to.deep.equal([]);
    });
  });
});
