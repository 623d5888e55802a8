import { expect } from 'chai';
import { createServer, type Server } from 'node:net';
import { rmSync } from 'node:fs';
import { openDatabase } from '../../src/store/sqlite-store';
import { SqliteUserStore } from '../../src/store/sqlite-user.store';
import { runGrid } from '../support/cli';
import { tempDir } from '../support/server';

/** A port held by another listener of this process. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
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
});
