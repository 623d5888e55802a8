import { expect } from 'chai';
import fc from 'fast-check';
import type { Cluster } from 'ioredis';
import { Counter } from '../../../src/grid/counter';
import type { CounterCell } from '../../../src/grid/counter-values';
import { RedisCounterValues } from '../../../src/grid/redis-counter-values';
import { type CounterConfig, LONG_MAX, LONG_MIN, parseCounterConfig } from '../../../src/model/counter-config';
import { RedisCounters } from '../../../src/store/redis/redis-counters';
import { ManualClock, systemClock, type Clock } from '../../../src/util/clock';
import { masterAddresses, masterOfSlot, useClusterClients } from '../../support/redis-client';
import { throwawayCluster } from '../../support/redis-cluster';

// Counter values on a real 3+3 Redis Cluster, through the seam (src/grid/counter-values.ts):
// the rules of src/grid/counter.ts in one script per operation (docs/scale-out.md, "Counters").

type Outcome = { value: bigint | undefined } | { error: string };

/** What an operation answered, or the text of what it threw, synchronously or not. */
async function outcomeOf(op: () => unknown): Promise<Outcome> {
  try {
    const value = await op();
    return { value: typeof value === 'bigint' ? value : undefined };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

const UPPER = { error: 'ISPN029501: Upper bound reached.' };
const LOWER = { error: 'ISPN029501: Lower bound reached.' };
let counters = 0;

describe('RedisCounterValues: counter values on Redis Cluster', function () {
  this.timeout(60_000);
  const redis = throwawayCluster();
  const clients = useClusterClients(redis);

  const valuesOn = (c: Cluster, clock: Clock = systemClock, container = 'c') => new RedisCounterValues(new RedisCounters(c, container), clock);

  /** A counter defined just now on `client`: its value created at the initial value. */
  async function defined(json: string, clock: Clock = systemClock, name = `n${++counters}`, client = clients.client): Promise<CounterCell> {
    const cell = valuesOn(client, clock).cell(name, parseCounterConfig(json));
    await cell.create();
    return cell;
  }

  describe('the rules of src/grid/counter.ts', () => {
    it('adds, and resets to the initial value', async () => {
      const c = await defined('{"strong-counter":{"initial-value":10}}');
      expect(await c.value()).to.equal(10n);
      expect(await c.add(5n)).to.equal(15n);
      expect(await c.add(-20n)).to.equal(-5n);
      await c.reset();
      expect(await c.value()).to.equal(10n);
    });

    it('stops at the bound and fails when an add passes it (the value stays at the bound)', async () => {
      const c = await defined('{"strong-counter":{"initial-value":8,"lower-bound":0,"upper-bound":10}}');
      expect(await outcomeOf(() => c.add(5n))).to.deep.equal(UPPER);
      expect(await c.value()).to.equal(10n);
      expect(await outcomeOf(() => c.add(1n))).to.deep.equal(UPPER);
      expect(await c.add(-10n)).to.equal(0n);
      expect(await outcomeOf(() => c.add(-1n))).to.deep.equal(LOWER);
      expect(await c.value()).to.equal(0n);
    });

    it('saturates unbounded counters at the 64-bit limits, weak and strong, whatever the delta', async () => {
      const weak = await defined('{"weak-counter":{"initial-value":9223372036854775806}}');
      expect(await weak.add(5n)).to.equal(LONG_MAX);
      expect(await weak.add(LONG_MAX)).to.equal(LONG_MAX);
      expect(await weak.add(LONG_MIN)).to.equal(-1n);
      const strong = await defined('{"strong-counter":{"initial-value":-9223372036854775807}}');
      expect(await strong.add(-5n)).to.equal(LONG_MIN);
      expect(await strong.add(LONG_MIN)).to.equal(LONG_MIN);
      expect(await strong.add(LONG_MAX)).to.equal(-1n);
      expect(await strong.add(1n)).to.equal(0n);
    });

    it('adds exactly where doubles cannot: across 2^53, the 10^10 carry and zero', async () => {
      const c = await defined('{"strong-counter":{"initial-value":9007199254740992}}');
      expect(await c.add(1n)).to.equal(9007199254740993n);
      expect(await c.add(9223372036854775807n - 9007199254740993n - 1n)).to.equal(LONG_MAX - 1n);
      expect(await c.add(1n)).to.equal(LONG_MAX);
      await c.restoreValue(9_999_999_999n);
      expect(await c.add(1n)).to.equal(10_000_000_000n);
      expect(await c.add(-10_000_000_001n)).to.equal(-1n);
      expect(await c.add(-9_999_999_999n)).to.equal(-10_000_000_000n);
      expect(await c.add(10_000_000_000n)).to.equal(0n);
      expect(await c.add(-9223372036854775807n)).to.equal(LONG_MIN + 1n);
      expect(await c.add(-1n)).to.equal(LONG_MIN);
      expect(await c.value()).to.equal(LONG_MIN);
    });

    it('fails at LONG_MAX, not saturating, when only a lower bound was given (a bounded counter)', async () => {
      const c = await defined('{"strong-counter":{"initial-value":9223372036854775800,"lower-bound":0}}');
      expect(await outcomeOf(() => c.add(100n))).to.deep.equal(UPPER);
      expect(await c.value()).to.equal(LONG_MAX);
      const d = await defined('{"strong-counter":{"initial-value":-9223372036854775800,"upper-bound":0}}');
      expect(await outcomeOf(() => d.add(LONG_MIN))).to.deep.equal(LOWER);
      expect(await d.value()).to.equal(LONG_MIN);
    });

    it('compare-and-swap sets only on a match, returns the previous value, and refuses updates outside the bounds unchanged', async () => {
      const c = await defined('{"strong-counter":{"initial-value":1,"lower-bound":0,"upper-bound":5}}');
      expect(await c.compareAndSwap(2n, 3n)).to.equal(1n);
      expect(await c.value()).to.equal(1n);
      expect(await c.compareAndSwap(1n, 3n)).to.equal(1n);
      expect(await c.value()).to.equal(3n);
      expect(await outcomeOf(() => c.compareAndSwap(3n, 6n))).to.deep.equal(UPPER);
      expect(await c.value()).to.equal(3n);
      expect(await c.compareAndSwap(4n, 6n)).to.equal(3n); // no match: no bound check, nothing changed
      expect(await c.getAndSet(4n)).to.equal(3n);
      expect(await outcomeOf(() => c.getAndSet(-1n))).to.deep.equal(LOWER);
      expect(await c.value()).to.equal(4n);
    });

    it('restores a value with no bound check', async () => {
      const c = await defined('{"strong-counter":{"initial-value":1,"lower-bound":0,"upper-bound":5}}');
      await c.restoreValue(LONG_MIN);
      expect(await c.value()).to.equal(LONG_MIN);
    });

    it('returns to its initial value once its lifespan has passed since the last update (the caller\'s clock)', async () => {
      const clock = new ManualClock();
      const c = await defined('{"strong-counter":{"initial-value":7,"lifespan":1000}}', clock);
      expect(await c.add(3n)).to.equal(10n);
      clock.advance(999);
      expect(await c.value()).to.equal(10n);
      clock.advance(1);
      expect(await c.value()).to.equal(7n);
      expect(await c.add(1n)).to.equal(8n);
      clock.advance(1000);
      expect(await c.compareAndSwap(7n, 9n)).to.equal(7n);
      clock.advance(1000);
      expect(await c.getAndSet(1n)).to.equal(7n);
    });
  });

  describe('definition and removal', () => {
    it('gives a counter defined anew its initial value, whatever a removed one of the name left', async () => {
      const name = `n${++counters}`;
      const old = await defined('{"strong-counter":{"initial-value":0}}', systemClock, name);
      await old.add(42n);
      await old.drop();
      const absent = valuesOn(clients.other).cell(name, parseCounterConfig('{"strong-counter":{"initial-value":5}}'));
      expect(await absent.value()).to.equal(5n); // no key: the initial value
      await old.add(42n); // a node that has not heard of the removal yet writes again
      await absent.create();
      expect(await absent.value()).to.equal(5n);
    });

    it('keeps one hash per counter under a hash tag of its own (braces in a name escaped), spread over every master', async () => {
      const c = await defined('{"strong-counter":{"initial-value":0}}', systemClock, 'a}b{c%');
      await c.add(3n);
      const key = 'n:{c:a%7Db%7Bc%25}';
      expect(await clients.client.hgetall(key)).to.have.keys('v', 'u').and.include({ v: '3' });
      await c.drop();
      expect(await clients.client.exists(key)).to.equal(0);
      const masters = new Set<string>();
      for (let i = 0; i < 30; i++) masters.add(masterOfSlot(clients.client, await clients.client.cluster('KEYSLOT', `n:{c:spread-${i}}`) as number));
      expect([...masters].sort()).to.deep.equal(masterAddresses(clients.client).sort());
    });

    it('refuses a container id that would break the hash tag', () => {
      for (const id of ['', 'a{b', 'a}b', 'a:b']) expect(() => new RedisCounters(clients.client, id)).to.throw('a container id in a Redis hash tag');
    });
  });

  describe('the same answers as the local Counter', () => {
    const interesting = [LONG_MIN, LONG_MIN + 1n, -10_000_000_000n, -9_999_999_999n, -5_000_000_000n, -1n, 0n, 1n, 5_000_000_000n, 9_999_999_999n, 10_000_000_000n, 2n ** 53n + 1n, LONG_MAX - 1n, LONG_MAX];
    const long: fc.Arbitrary<bigint> = fc.oneof(fc.constantFrom(...interesting), fc.bigInt({ min: -20n, max: 20n }), fc.bigInt({ min: LONG_MIN, max: LONG_MAX }));
    const strong = fc.record({
      values: fc.uniqueArray(long, { minLength: 3, maxLength: 3 }).map((v) => v.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))),
      bounds: fc.constantFrom('none', 'both', 'lower', 'upper'),
      lifespan: fc.constantFrom(-1, 0, 5, 50),
    }).map(({ values: [lower, initial, upper], bounds, lifespan }) => {
      const attrs: Record<string, string | number> = { 'initial-value': String(initial), lifespan };
      if (bounds === 'both' || bounds === 'lower') attrs['lower-bound'] = String(lower);
      if (bounds === 'both' || bounds === 'upper') attrs['upper-bound'] = String(upper);
      return JSON.stringify({ 'strong-counter': attrs });
    });
    const weak = long.map((initial) => JSON.stringify({ 'weak-counter': { 'initial-value': String(initial) } }));
    type Op = ['add' | 'getAndSet' | 'restoreValue', bigint] | ['value' | 'reset'] | ['compareAndSwap', bigint | null, bigint] | ['advance', number];
    const op: fc.Arbitrary<Op> = fc.oneof(
      { arbitrary: fc.tuple(fc.constant('add' as const), long), weight: 4 },
      fc.tuple(fc.constantFrom('value' as const, 'reset' as const)),
      { arbitrary: fc.tuple(fc.constant('compareAndSwap' as const), fc.option(long, { nil: null }), long), weight: 2 },
      fc.tuple(fc.constantFrom('getAndSet' as const, 'restoreValue' as const), long),
      fc.tuple(fc.constant('advance' as const), fc.oneof(fc.constantFrom(1, 4, 5, 45, 50), fc.integer({ min: 1, max: 60 }))),
    );

    /** Runs `o` on the reference and on Redis; a compare-and-swap with no `expect` expects the value the reference holds. */
    async function both(o: Op, local: Counter, remote: CounterCell, clock: ManualClock): Promise<[Outcome, Outcome]> {
      switch (o[0]) {
        case 'advance': clock.advance(o[1]); return [{ value: undefined }, { value: undefined }];
        case 'value': return [await outcomeOf(() => local.value()), await outcomeOf(() => remote.value())];
        case 'add': return [await outcomeOf(() => local.add(o[1])), await outcomeOf(() => remote.add(o[1]))];
        case 'reset': return [await outcomeOf(() => local.reset()), await outcomeOf(() => remote.reset())];
        case 'getAndSet': return [await outcomeOf(() => local.getAndSet(o[1])), await outcomeOf(() => remote.getAndSet(o[1]))];
        case 'restoreValue': return [await outcomeOf(() => local.restoreValue(o[1])), await outcomeOf(() => remote.restoreValue(o[1]))];
        case 'compareAndSwap': {
          const expect = o[1] ?? local.value();
          return [await outcomeOf(() => local.compareAndSwap(expect, o[2])), await outcomeOf(() => remote.compareAndSwap(expect, o[2]))];
        }
      }
    }

    it('answers every random sequence of operations as Counter does, value and error alike', async function () {
      this.timeout(180_000);
      const values = (clock: Clock) => valuesOn(clients.client, clock);
      await fc.assert(fc.asyncProperty(fc.oneof({ arbitrary: strong, weight: 4 }, weak), fc.array(op, { maxLength: 30 }), async (json, ops) => {
        const config: CounterConfig = parseCounterConfig(json);
        const clock = new ManualClock();
        const local = new Counter('c', config, config.initialValue, clock.now(), clock);
        const remote = values(clock).cell(`p${++counters}`, config);
        await remote.create();
        for (const o of ops) {
          const [expected, actual] = await both(o, local, remote, clock);
          expect(actual, `${o[0]} ${o.slice(1).join(' ')}`).to.deep.equal(expected);
        }
        expect(await remote.value()).to.equal(local.value());
      }), { numRuns: 300 });
    });
  });

  describe('several clients at once (several grid nodes)', () => {
    const WRITERS = 8;

    it(`loses no increment: ${WRITERS} writers over two clients, 250 each, end exactly at the sum`, async () => {
      const name = `n${++counters}`;
      const config = parseCounterConfig('{"strong-counter":{"initial-value":0}}');
      await valuesOn(clients.client).cell(name, config).create();
      const cells = Array.from({ length: WRITERS }, (_, i) => valuesOn(i % 2 ? clients.other : clients.client).cell(name, config));
      const seen = await Promise.all(cells.map(async (cell) => {
        const answers: bigint[] = [];
        for (let i = 0; i < 250; i++) answers.push(await cell.add(1n));
        return answers;
      }));
      expect(await cells[0].value()).to.equal(BigInt(WRITERS * 250));
      // every new value was answered to exactly one increment
      expect(new Set(seen.flat()).size).to.equal(WRITERS * 250);
    });

    it('lets exactly one compare-and-swap of a round win, whichever client sends it', async () => {
      const name = `n${++counters}`;
      const config = parseCounterConfig('{"strong-counter":{"initial-value":0,"lower-bound":0,"upper-bound":1000}}');
      await valuesOn(clients.client).cell(name, config).create();
      const cells = Array.from({ length: WRITERS }, (_, i) => valuesOn(i % 2 ? clients.other : clients.client).cell(name, config));
      for (let round = 0n; round < 50n; round++) {
        const previous = await Promise.all(cells.map(async (cell) => cell.compareAndSwap(round, round + 1n)));
        expect(previous.filter((p) => p === round), `round ${round}`).to.have.length(1);
        expect(previous.filter((p) => p !== round).every((p) => p === round + 1n)).to.equal(true);
      }
      expect(await cells[1].value()).to.equal(50n);
    });
  });
});
