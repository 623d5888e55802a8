'use strict';
// `node bench/redis-counters.js` (after `npm run build`; needs redis-server): counter increments on a
// throwaway 3-master + 3-replica cluster, through RedisCounterValues from one process —
// docs/scale-out.md "Counters" holds the figures.
//
// Increments per second, ROUNDS rounds, the nodes with `appendfsync everysec` (the engine, not the
// disk): one strong counter, sequential (`await` each) and 256 in flight (every one on the counter's
// master); 256 in flight spread over 256 counters (every master); a bare HINCRBY of one key, 256 in
// flight, for what the script costs; then one round of each with `appendfsync always`.
const { join } = require('node:path');
const { ROOT, inFlight, sequential, withThrowawayCluster } = require('./lib');

const { RedisCounters } = require(join(ROOT, 'dist/src/store/redis/redis-counters.js'));
const { RedisCounterValues } = require(join(ROOT, 'dist/src/grid/redis-counter-values.js'));
const { parseCounterConfig } = require(join(ROOT, 'dist/src/model/counter-config.js'));
const { systemClock } = require(join(ROOT, 'dist/src/util/clock.js'));

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 3000);
const CONCURRENT = Number(process.env.CONCURRENT ?? 30000);
const SPREAD = 256;
const STRONG = parseCounterConfig('{"strong-counter":{"initial-value":0}}');


async function round(client, values, label, round) {
  const one = values.cell(`one-${label}-${round}`, STRONG);
  await one.create();
  const spread = Array.from({ length: SPREAD }, (_, i) => values.cell(`spread-${label}-${round}-${i}`, STRONG));
  await Promise.all(spread.map((c) => c.create()));
  const row = {
    seqAdd: await sequential(SEQUENTIAL, () => one.add(1n)),
    add256: await inFlight(CONCURRENT, 256, () => one.add(1n)),
    add256Spread: await inFlight(CONCURRENT, 256, (i) => spread[i % SPREAD].add(1n)),
    hincrby256: await inFlight(CONCURRENT, 256, () => client.hincrby(`bare-${label}-${round}`, 'v', 1)),
  };
  const total = await one.value();
  if (total !== BigInt(SEQUENTIAL + CONCURRENT)) throw new Error(`lost increments: ${total}`);
  console.log(JSON.stringify({ phase: 'increments', appendfsync: label, round, ...row }));
}

async function main() {
  await withThrowawayCluster(async ({ setFsync, connect }) => {
    const client = await connect();
    try {
      const values = new RedisCounterValues(new RedisCounters(client, 'bench'), systemClock);
      await setFsync('everysec');
      for (let r = 1; r <= ROUNDS; r++) await round(client, values, 'everysec', r);
      await setFsync('always');
      await round(client, values, 'always', 1);
    } finally {
      client.disconnect();
    }
  });
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
