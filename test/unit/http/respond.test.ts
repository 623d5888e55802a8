import { expect } from 'chai';
import type { Context } from 'koa';
import type { Readable } from 'node:stream';
import { sendParts } from '../../../src/http/respond';

describe('sendParts (answers written in parts)', () => {

  it('sends one part as it is, and several as a stream with their whole length', () => {
    const one = {} as Context;
    sendParts(one, [Buffer.from('{"a":1}')]);
    expect(one.body).to.deep.equal(Buffer.from('{"a":1}'));
    const many = {} as Context;
    sendParts(many, [Buffer.from('ab'), Buffer.from('cde')]);
    expect(many.length).to.equal(5);
  });

  it('gives the event loop a turn every MiB to a reader that keeps up, with every byte in order', async () => {
    const parts = Array.from({ length: 128 }, (_, i) => Buffer.alloc(64 * 1024, i));
    const ctx = {} as Context;
    sendParts(ctx, parts);
    let turns = 0;
    let done = false;
    const turn = (): void => {
      if (done) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    const read: Buffer[] = [];
    for await (const chunk of ctx.body as Readable) read.push(chunk as Buffer);
    done = true;
    expect(Buffer.concat(read).equals(Buffer.concat(parts))).to.equal(true);
    // 8 MiB: a turn after each MiB written
    expect(turns).to.be.at.least(7);
  });
});
