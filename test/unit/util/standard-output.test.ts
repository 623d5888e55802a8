import { expect } from 'chai';
import { Writable } from 'node:stream';
import { STDOUT_BACKLOG_BYTES, StandardOutput } from '../../../src/util/standard-output';

/** A reader that takes nothing until `release()`. */
function stalledReader(): { stream: Writable; received: () => number; release: () => void } {
  let received = 0;
  const held: Array<() => void> = [];
  let released = false;
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (released) done(); else held.push(done);
    },
  });
  return { stream, received: () => received, release: () => { released = true; held.splice(0).forEach((done) => done()); } };
}

describe('StandardOutput', () => {
  it('holds at most the backlog for a reader that stops reading, counts what it drops, and says so when the reader caught up', async () => {
    const reader = stalledReader();
    const out = new StandardOutput(reader.stream);
    const caughtUp: number[] = [];
    out.onCaughtUp = (n) => caughtUp.push(n);
    const line = 'x'.repeat(999) + '\n';
    for (let i = 0; i < 3000; i++) out.write(line);
    expect(reader.stream.writableLength).to.be.at.most(STDOUT_BACKLOG_BYTES + line.length);
    reader.release();
    await new Promise((resolve) => setImmediate(resolve));
    const kept = Math.ceil((STDOUT_BACKLOG_BYTES + 1) / line.length);
    expect(caughtUp).to.deep.equal([3000 - kept]);
    expect(reader.received()).to.equal(kept * line.length);
  });

  it('writes nothing more, and throws nothing, once its reader is gone', () => {
    const stream = new Writable({ write(_chunk, _enc, done) { done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })); } });
    const out = new StandardOutput(stream);
    out.write('first\n');
    expect(() => out.write('second\n')).to.not.throw();
  });
});
