import { expect } from 'chai';
import fc from 'fast-check';
import { Agent } from 'node:http';
import { fingerprint } from '../support/data-dir';
import { BOOK_PROTO, BUDGET_CACHES, LARGE_VALUES, bookJson, largeReads, largeWrites, postedQueries, safeQueries } from '../support/fuzz-budgets';
import type { FuzzRequest } from '../support/fuzz-requests';
import { describeRequest, send, violation } from '../support/fuzz-send';
import { registerSchema } from '../support/search';
import { useServer } from '../support/server';
import { STALL_BOUND_MS, startHealthProbe } from '../support/stall-probe';

// Costs a client chooses (docs/security.md, What a client can make the server do): seeded
// adversarial queries and large values from 8 concurrent clients, mostly as the read-only observer.
// The oracle: no unexplained 5xx, the anonymous health probe under STALL_BOUND_MS the whole time,
// the resident set growing by less than RSS_GROWTH_BOUND, and nothing changed by a GET (the data
// directory's files and the caches' sizes are compared around the GET phase) nor by the observer.

// 400 in `npm test` (13 s a phase at 600 on two cores), 2,000 with GRID_SOAK=1 (`npm run soak`)
const TOTAL = Number(process.env.GRID_FUZZ_BUDGET_REQUESTS ?? (process.env.GRID_SOAK === '1' ? 2_000 : 400));
const SEED = Number(process.env.GRID_FUZZ_SEED ?? 20261127);
const CLIENTS = 8;
const BOOKS = 1_000;
/**
 * How much the resident set may grow: each of the 8 clients may have a 10 MB value (the body limit)
 * in flight, held as received, as stored and as converted — about 8 × 3 × 10 MB — plus the heap's
 * own slack after a burst (V8 keeps freed pages for a while). Twice that is still far below what
 * the findings measured (RSS +760 MB for one answer, +700 MB for the query memo).
 */
const RSS_GROWTH_BOUND = 512 * 1024 ** 2;

describe('fuzzing the budgets: adversarial queries and large values against a real server', function () {
  this.timeout(15 * 60_000);
  // a short deadline so that the heaviest queries end soon; the oracle holds whatever the deadline
  const server = useServer({ limits: { queryTimeout: 3_000 } });

  before(async () => {
    const admin = server.as('admin');
    await registerSchema(admin, 'fz-book.proto', BOOK_PROTO);
    for (const [name, config] of Object.entries(BUDGET_CACHES)) await admin.createCache(name, config);
    for (const cache of ['fz-idx', 'fz-scan']) {
      for (let i = 0; i < BOOKS; i += 50) {
        await Promise.all(Array.from({ length: 50 }, async (_, j) => {
          const r = await admin.put(`/rest/v2/caches/${cache}/b${i + j}`, bookJson(i + j), { 'Content-Type': 'application/json' });
          expect(r.status, r.text).to.equal(204);
        }));
      }
    }
    for (const [key, value] of Object.entries(LARGE_VALUES)) {
      expect((await admin.put(`/rest/v2/caches/fz-text/${key}`, value, { 'Content-Type': 'text/plain; charset=UTF-8' })).status).to.equal(204);
    }
  });

  /** Sends `requests` from CLIENTS clients under the oracle; the probe's and the RSS sampler's findings. */
  async function run(requests: FuzzRequest[]): Promise<{ violations: string[]; worstMs: number; probeFailures: number; rssGrowth: number; statuses: Record<number, number> }> {
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const violations: string[] = [];
    const statuses: Record<number, number> = {};
    const startRss = process.memoryUsage().rss;
    let maxRss = startRss;
    const sampler = setInterval(() => { maxRss = Math.max(maxRss, process.memoryUsage().rss); }, 100);
    const probe = startHealthProbe(server.url, 20);
    const queue = requests[Symbol.iterator]();
    try {
      await Promise.all(Array.from({ length: CLIENTS }, async () => {
        for (let next = queue.next(); !next.done; next = queue.next()) {
          const outcome = await send(server.url, agent, next.value);
          statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
          const wrong = violation(next.value, outcome);
          if (wrong && violations.length < 25) violations.push(`${wrong}: ${describeRequest(next.value)}`);
        }
      }));
    } finally {
      clearInterval(sampler);
      agent.destroy();
    }
    const report = await probe.stop();
    return { violations, worstMs: report.worstMs, probeFailures: report.failures, rssGrowth: maxRss - startRss, statuses };
  }

  async function sizes(): Promise<Record<string, string>> {
    const admin = server.as('admin');
    const out: Record<string, string> = {};
    for (const cache of Object.keys(BUDGET_CACHES)) out[cache] = (await admin.get(`/rest/v2/caches/${cache}?action=size`)).text;
    return out;
  }

  function expectWithinBudget(name: string, outcome: Awaited<ReturnType<typeof run>>): void {
    console.log(`      ${name}: slowest health probe ${outcome.worstMs.toFixed(0)} ms; RSS +${(outcome.rssGrowth / 1024 ** 2).toFixed(0)} MB; statuses ${JSON.stringify(outcome.statuses)}`);
    expect(outcome.violations, 'requests the oracle refuses').to.deep.equal([]);
    expect(outcome.probeFailures, 'health probes that failed').to.equal(0);
    expect(outcome.worstMs, 'slowest health probe (ms)').to.be.lessThan(STALL_BOUND_MS);
    expect(outcome.rssGrowth, 'growth of the resident set (bytes)').to.be.lessThan(RSS_GROWTH_BOUND);
  }

  it(`answers ${TOTAL / 2} seeded GET searches and large reads (seed ${SEED}) within budget, and changes nothing`, async () => {
    const before = { files: fingerprint(server.dataDir), sizes: await sizes() };
    const requests = fc.sample(fc.oneof({ weight: 3, arbitrary: safeQueries }, { weight: 1, arbitrary: largeReads }), { seed: SEED, numRuns: TOTAL / 2 });
    expectWithinBudget('GET phase', await run(requests));
    expect(await sizes()).to.deep.equal(before.sizes);
    expect(fingerprint(server.dataDir)).to.deep.equal(before.files);
  });

  it(`answers ${TOTAL / 2} seeded POST searches and large writes (seed ${SEED}) within budget; the observer removes nothing`, async () => {
    const before = await sizes();
    const requests = fc.sample(fc.oneof({ weight: 3, arbitrary: postedQueries }, { weight: 1, arbitrary: largeWrites }), { seed: SEED + 1, numRuns: TOTAL / 2 });
    expectWithinBudget('POST phase', await run(requests));
    const after = await sizes();
    expect([after['fz-idx'], after['fz-scan']]).to.deep.equal([before['fz-idx'], before['fz-scan']]);
  });
});
