import { expect } from 'chai';
import { FairGate, type GatePlace } from '../../../src/services/auth/fair-gate';

describe('FairGate', () => {
  function deferred(): { promise: Promise<void>; resolve: () => void } {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => { resolve = r; });
    return { promise, resolve };
  }
  const refusal = () => new Error('refused');
  /** A place of one key per level, each level holding at most `cap`. */
  const at = (cap: number, ...keys: string[]): GatePlace[] => keys.map((key) => ({ key, cap }));
  const never = () => new Promise<void>(() => undefined);

  it('runs at most `slots` at once and serves keys in turn', async () => {
    const gate = new FairGate(1, 100);
    const order: string[] = [];
    const blockers = new Map<string, { promise: Promise<void>; resolve: () => void }>();
    const task = (id: string) => () => {
      order.push(id);
      const d = deferred();
      blockers.set(id, d);
      return d.promise;
    };
    const runs = [gate.run(at(10, 'a'), task('a1'), refusal), gate.run(at(10, 'a'), task('a2'), refusal), gate.run(at(10, 'a'), task('a3'), refusal), gate.run(at(10, 'b'), task('b1'), refusal)];
    for (const id of ['a1', 'a2', 'b1', 'a3']) {
      await new Promise((r) => setImmediate(r));
      expect(order[order.length - 1]).to.equal(id);
      blockers.get(id)!.resolve();
    }
    await Promise.all(runs.map((r) => r!));
    expect(order).to.deep.equal(['a1', 'a2', 'b1', 'a3']);
  });

  it('takes turns at every level: many users under one address get one turn of the address', async () => {
    const gate = new FairGate(1, 100);
    const order: string[] = [];
    const blockers: Array<() => void> = [];
    const task = (id: string) => () => { order.push(id); const d = deferred(); blockers.push(d.resolve); return d.promise; };
    const runs = [
      gate.run(at(10, 'x'), task('first'), refusal),
      ...['u1', 'u2', 'u3'].map((u) => gate.run(at(10, '10.0.0.1', u), task(`a-${u}`), refusal)),
      gate.run(at(10, '10.0.0.2', 'v'), task('b-v'), refusal),
    ];
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setImmediate(r));
      blockers[i]();
    }
    await Promise.all(runs.map((r) => r!));
    expect(order).to.deep.equal(['first', 'a-u1', 'b-v', 'a-u2', 'a-u3']);
  });

  it('refuses at once beyond a group\'s cap and beyond the total when no group holds clearly more', () => {
    const gate = new FairGate(1, 3);
    expect(gate.run(at(2, 'a'), never, refusal)).to.not.equal(undefined);
    expect(gate.run(at(2, 'a'), never, refusal)).to.not.equal(undefined);
    expect(gate.run(at(2, 'a'), never, refusal)).to.not.equal(undefined);
    expect(gate.run(at(2, 'a'), never, refusal), 'a: two waiting already').to.equal(undefined);
    expect(gate.run(at(2, 'b'), never, refusal)).to.not.equal(undefined);
    expect(gate.run(at(2, 'c'), never, refusal), 'full: c takes the place of a\'s newest').to.not.equal(undefined);
    expect(gate.run(at(2, 'd'), never, refusal), 'a, b and c hold one each').to.equal(undefined);
    expect(gate.waiting).to.equal(3);
  });

  it('makes room for a newcomer by refusing the newest task of the group that has most', async () => {
    const gate = new FairGate(1, 4);
    void gate.run(at(4, 'busy'), never, refusal);
    const flood = [0, 1, 2, 3].map(() => gate.run(at(4, 'flood'), never, refusal)!);
    const outcomes = flood.map((p) => p.then(() => 'ran', (err: Error) => err.message));
    expect(gate.waiting).to.equal(4);
    expect(gate.run(at(4, 'fresh'), never, refusal), 'a key with nothing waiting gets in').to.not.equal(undefined);
    expect(gate.waiting).to.equal(4);
    expect(await Promise.race([outcomes[3], new Promise((r) => setImmediate(() => r('waiting')))])).to.equal('refused');
    expect(await Promise.race([outcomes[0], new Promise((r) => setImmediate(() => r('waiting')))])).to.equal('waiting');
  });

  it('evicts inside the newcomer\'s own group when that group is the full one', () => {
    const gate = new FairGate(1, 100);
    void gate.run(at(100, 'busy'), never, refusal);
    for (let i = 0; i < 3; i++) void gate.run([{ key: 'site', cap: 4 }, { key: 'host1', cap: 4 }], never, refusal);
    void gate.run([{ key: 'site', cap: 4 }, { key: 'host2', cap: 4 }], never, refusal);
    expect(gate.run([{ key: 'site', cap: 4 }, { key: 'host3', cap: 4 }], never, refusal), 'host1 gives up its newest').to.not.equal(undefined);
    expect(gate.run([{ key: 'site', cap: 4 }, { key: 'host1', cap: 4 }], never, refusal), 'host1 has most: refused').to.equal(undefined);
    expect(gate.waiting).to.equal(4);
  });

  it('frees the slot when a task fails', async () => {
    const gate = new FairGate(1, 1);
    const failing = gate.run(at(1, 'a'), () => Promise.reject(new Error('x')), refusal)!;
    const next = gate.run(at(1, 'b'), async () => 'ran', refusal)!;
    await failing.catch(() => undefined);
    expect(await next).to.equal('ran');
  });
});
