import { expect } from 'chai';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeArchive } from '../../../src/services/backup/archive-writer';
import type { ContainerSnapshot } from '../../../src/services/backup/snapshot';
import type { StoredEntry } from '../../../src/store/store';
import { tempDir } from '../../support/server';

describe('writeArchive', () => {
  const entry = (i: number): StoredEntry => ({ key: Buffer.from(`k${i}`), value: Buffer.from('v'), valueType: 'application/octet-stream', created: 1, lastUsed: 1, lifespan: -1, maxIdle: -1 });
  const snapshotOf = (pages: () => Generator<StoredEntry[]>): ContainerSnapshot => ({
    caches: [{ name: 'c', configXml: '<local-cache/>', pages }],
    templates: [], counters: [], schemas: [], tasks: [], consistency: 'point-in-time', close: () => undefined,
  });

  it('fails the archive, not the process, when a page cannot be read; no file is left', async () => {
    const dir = tempDir();
    try {
      const snapshot = snapshotOf(function* () {
        yield [entry(1)];
        throw new TypeError('The database connection is not open');
      });
      let error: unknown;
      await writeArchive(snapshot, 'default', join(dir, 'b', 'b.zip')).catch((e: unknown) => { error = e; });
      expect(String(error)).to.contain('The database connection is not open');
      expect(readdirSync(join(dir, 'b'))).to.deep.equal([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads no page once its signal is aborted', async () => {
    const dir = tempDir();
    try {
      const controller = new AbortController();
      let read = 0;
      const snapshot = snapshotOf(function* () {
        for (;;) {
          read++;
          if (read === 3) controller.abort(new Error('stopping'));
          yield [entry(read)];
        }
      });
      let error: unknown;
      await writeArchive(snapshot, 'default', join(dir, 'b.zip'), controller.signal).catch((e: unknown) => { error = e; });
      expect((error as Error).name).to.equal('AbortError');
      await new Promise((r) => setTimeout(r, 50)); // the generator would have gone on here
      expect(read).to.equal(3);
      expect(existsSync(join(dir, 'b.zip'))).to.equal(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
