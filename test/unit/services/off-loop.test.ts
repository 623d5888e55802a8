import { expect } from 'chai';
import pino from 'pino';
import { NO_CONFIG_LIMITS } from '../../../src/model/cache-config';
import { etagOf } from '../../../src/model/etag';
import { parseMediaType } from '../../../src/model/media/media-type';
import { OffLoop } from '../../../src/services/off-loop/off-loop';

describe('OffLoop', () => {
  const job = { text: '{"local-cache":{}}', format: 'json' as const, limits: NO_CONFIG_LIMITS };

  async function until(condition: () => boolean): Promise<void> {
    for (let waited = 0; !condition(); waited += 10) {
      if (waited > 10_000) throw new Error('condition not reached within 10 s');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it('starts its thread on the first job, stops it when idle, and starts it again for the next job', async () => {
    const offLoop = new OffLoop({ maxQueue: 4, deadlineMs: 30_000, idleMs: 20, log: pino({ level: 'silent' }) });
    try {
      expect(offLoop.threadStarted).to.equal(false);
      const first = await offLoop.run('config.parse', job);
      expect(first).to.have.nested.property('root.name', 'local-cache');
      await until(() => !offLoop.threadStarted);
      expect(await offLoop.run('config.parse', job)).to.deep.equal(first);
    } finally {
      await offLoop.close();
    }
  });

  it('keeps its thread while jobs follow each other', async () => {
    const offLoop = new OffLoop({ maxQueue: 4, deadlineMs: 30_000, idleMs: 60_000, log: pino({ level: 'silent' }) });
    try {
      await Promise.all([offLoop.run('config.parse', job), offLoop.run('config.parse', job)]);
      expect(offLoop.threadStarted).to.equal(true);
    } finally {
      await offLoop.close();
    }
  });

  it('converts a value of several MB on its thread: the bytes go over in slices and come back whole', async () => {
    const offLoop = new OffLoop({ maxQueue: 4, deadlineMs: 30_000, log: pino({ level: 'silent' }) });
    try {
      const text = 'a & b '.repeat(500_000);
      const r = await offLoop.run('value.convert', { bytes: Buffer.from(text), from: parseMediaType('text/plain'), to: parseMediaType('application/xml') });
      const expected = `<string>${text.replace(/&/g, '&amp;')}</string>`;
      expect(Buffer.from(r.body).toString() === expected, 'the escaped text in <string>').to.equal(true);
      expect(r.etag).to.equal(etagOf(Buffer.from(expected)));
    } finally {
      await offLoop.close();
    }
  });
});
