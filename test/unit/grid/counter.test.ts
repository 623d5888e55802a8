import { expect } from 'chai';
import { CounterOutOfBoundsError } from '../../../src/errors';
import { Counter } from '../../../src/grid/counter';
import { LONG_MAX, LONG_MIN, parseCounterConfig } from '../../../src/model/counter-config';
import { ManualClock } from '../../../src/util/clock';
import { thrown } from '../../support/thrown';

function counter(json: string, clock = new ManualClock()): Counter {
  const config = parseCounterConfig(json);
  return new Counter('c', config, config.initialValue, clock.now(), clock);
}

describe('Counter', () => {
  it('adds, and resets to the initial value', () => {
    const c = counter('{"strong-counter":{"initial-value":10}}');
    expect(c.add(5n)).to.equal(15n);
    expect(c.add(-20n)).to.equal(-5n);
    c.reset();
    expect(c.value()).to.equal(10n);
  });

  it('stops at the bound and fails when an add passes it (the value stays at the bound)', () => {
    const c = counter('{"strong-counter":{"initial-value":8,"lower-bound":0,"upper-bound":10}}');
    expect(thrown(() => c.add(5n), CounterOutOfBoundsError).message).to.equal('ISPN029501: Upper bound reached.');
    expect(c.value()).to.equal(10n);
    expect(thrown(() => c.add(1n)).message).to.equal('ISPN029501: Upper bound reached.');
    expect(c.add(-10n)).to.equal(0n);
    expect(thrown(() => c.add(-1n)).message).to.equal('ISPN029501: Lower bound reached.');
    expect(c.value()).to.equal(0n);
  });

  it('saturates unbounded counters at the 64-bit limits', () => {
    const c = counter('{"weak-counter":{"initial-value":9223372036854775806}}');
    expect(c.add(5n)).to.equal(LONG_MAX);
    const d = counter('{"strong-counter":{"initial-value":-9223372036854775807}}');
    expect(d.add(-5n)).to.equal(LONG_MIN);
  });

  it('compare-and-swap sets only on a match, returns the previous value, and refuses updates outside the bounds unchanged', () => {
    const c = counter('{"strong-counter":{"initial-value":1,"lower-bound":0,"upper-bound":5}}');
    expect(c.compareAndSwap(2n, 3n)).to.equal(1n);
    expect(c.value()).to.equal(1n);
    expect(c.compareAndSwap(1n, 3n)).to.equal(1n);
    expect(c.value()).to.equal(3n);
    expect(thrown(() => c.compareAndSwap(3n, 6n)).message).to.equal('ISPN029501: Upper bound reached.');
    expect(c.value()).to.equal(3n);
    expect(c.getAndSet(4n)).to.equal(3n);
    expect(thrown(() => c.getAndSet(-1n)).message).to.equal('ISPN029501: Lower bound reached.');
  });

  it('returns to its initial value once its lifespan has passed since the last update', () => {
    const clock = new ManualClock();
    const c = counter('{"strong-counter":{"initial-value":7,"lifespan":1000}}', clock);
    c.add(3n);
    clock.advance(999);
    expect(c.value()).to.equal(10n);
    clock.advance(1);
    expect(c.value()).to.equal(7n);
    expect(c.add(1n)).to.equal(8n);
  });
});
