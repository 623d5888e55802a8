import { expect } from 'chai';
import pino from 'pino';
import { Writable } from 'node:stream';
import { RateLimitedLog } from '../../../src/util/rate-limited-log';

describe('RateLimitedLog', () => {
  function logger(): { log: pino.Logger; lines: Array<Record<string, unknown>> } {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(...chunk.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)); done(); } });
    return { log: pino({ level: 'warn' }, sink), lines };
  }
  const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('writes the first occurrence at once and the count of the others at the end of the interval', async () => {
    const { log, lines } = logger();
    const refusals = new RateLimitedLog(log, 'refused', 100);
    for (let i = 0; i < 1000; i++) refusals.warn({ address: `10.0.0.${i % 7}` });
    await tick(10);
    expect(lines.map((l) => [l.msg, l.count, l.address])).to.deep.equal([['refused', 1, '10.0.0.0']]);
    await tick(250);
    expect(lines.map((l) => [l.msg, l.count, l.address])).to.deep.equal([['refused', 1, '10.0.0.0'], ['refused', 999, '10.0.0.5']]);
  });

  it('starts afresh after a quiet interval, and flush writes what is held back', async () => {
    const { log, lines } = logger();
    const refusals = new RateLimitedLog(log, 'refused', 50);
    refusals.warn({});
    await tick(150);
    refusals.warn({});
    refusals.warn({});
    refusals.flush();
    await tick(10);
    expect(lines.map((l) => l.count)).to.deep.equal([1, 1, 1]);
  });
});
