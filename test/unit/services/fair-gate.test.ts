import { expect } from 'chai';
import { FairGate } from '../../../src/services/fair-gate';

describe('FairGate', () => {
  function deferred(): { promise: Promise<void>; resolve: () => void } {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => { resolve = r; });
    return { promise, resolve };
  }

  it('runs at most `slots` at once and serves keys in turn', async () => {
    const gate = new FairGate(1, 10, 100);
    const order: string[] = [];
    const blockers = new Map<string, { promise: Promise<void>; resolve: () => void }>();
    const task = (id: string) => () => {
      order.push(id);
      const d = deferred();
      blockers.set(id, d);
      return d.promise;
    };
    const runs = [gate.run('a', task('a1')), gate.run('a', task('a2')), gate.run('a', task('a3')), gate.run('b', task('b1'))];
    for (const id of ['a1', 'a2', 'b1', 'a3']) {
      await new Promise((r) => setImmediate(r));
      expect(order[order.length - 1]).to.equal(id);
      blockers.get(id)!.resolve();
    }
    await Promise.all(runs);
    expect(order).to.deep.equal(['a1', 'a2', 'b1', 'a3']);
  });

  it('refuses at once beyond the per-key and total queue limits', () => {
    const gate = new FairGate(1, 2, 3);
    const never = () => new Promise<void>(() => undefined);
    expect(gate.run('a', never)).to.not.equal(undefined);
    expect(gate.run('a', never)).to.not.equal(undefined);
    expect(gate.run('a', never)).to.not.equal(undefined);
    expect(gate.run('a', never), 'a: two waiting already').to.equal(undefined);
    expect(gate.run('b', never)).to.not.equal(undefined);
    expect(gate.run('c', never), 'three waiting in all').to.equal(undefined);
  });

  it('frees the slot when a task fails', async () => {
    const gate = new FairGate(1, 1, 1);
    const failing = gate.run('a', () => Promise.reject(new Error('x')))!;
    const next = gate.run('b', async () => 'ran')!;
    await failing.catch(() => undefined);
    expect(await next).to.equal('ran');
  });
});
