import { expect } from 'chai';
import pino from 'pino';
import { NO_CONFIG_LIMITS } from '../../../src/model/cache-config';
import { OffLoop } from '../../../src/services/off-loop';

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
});
