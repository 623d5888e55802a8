import { expect } from 'chai';
import { resolveExpiry, type Expiry } from '../../../src/model/expiration';

// The cache's configured defaults, in ms; distinct so that every result says where it came from.
const DEFAULTS: Expiry = { lifespan: 600_000, maxIdle: 300_000 };

interface Row {
  rule: string;
  /** `timeToLiveSeconds` / `maxIdleTimeSeconds` as the edge read them: undefined when absent or not a number. */
  ttl: number | undefined;
  idle: number | undefined;
  expected: Expiry;
}

const ROWS: Row[] = [
  { rule: 'rule 1: both headers absent → both defaults', ttl: undefined, idle: undefined, expected: DEFAULTS },
  { rule: 'rule 1: only timeToLiveSeconds given → default max idle', ttl: 10, idle: undefined, expected: { lifespan: 10_000, maxIdle: 300_000 } },
  { rule: 'rule 1: only maxIdleTimeSeconds given → default lifespan', ttl: undefined, idle: 20, expected: { lifespan: 600_000, maxIdle: 20_000 } },
  { rule: 'rule 2: negative lifespan → never expires by lifespan', ttl: -1, idle: undefined, expected: { lifespan: -1, maxIdle: 300_000 } },
  { rule: 'rule 2: negative max idle → never expires by idleness', ttl: undefined, idle: -5, expected: { lifespan: 600_000, maxIdle: -1 } },
  { rule: 'rule 2: both negative → immortal', ttl: -100, idle: -1, expected: { lifespan: -1, maxIdle: -1 } },
  { rule: 'rule 3: both 0 → both defaults', ttl: 0, idle: 0, expected: DEFAULTS },
  { rule: 'rule 4: only max idle 0, ttl given → default max idle, ttl from header', ttl: 10, idle: 0, expected: { lifespan: 10_000, maxIdle: 300_000 } },
  { rule: 'rule 4: only max idle 0, ttl absent → default max idle, lifespan -1', ttl: undefined, idle: 0, expected: { lifespan: -1, maxIdle: 300_000 } },
  { rule: 'rule 4: only max idle 0, ttl negative → default max idle, lifespan -1', ttl: -1, idle: 0, expected: { lifespan: -1, maxIdle: 300_000 } },
  { rule: 'rule 5: only ttl 0, max idle given → default lifespan, max idle from header', ttl: 0, idle: 20, expected: { lifespan: 600_000, maxIdle: 20_000 } },
  { rule: 'rule 5: only ttl 0, max idle absent → default lifespan, max idle -1', ttl: 0, idle: undefined, expected: { lifespan: 600_000, maxIdle: -1 } },
  { rule: 'rule 5: only ttl 0, max idle negative → default lifespan, max idle -1', ttl: 0, idle: -3, expected: { lifespan: 600_000, maxIdle: -1 } },
  { rule: 'positive seconds become milliseconds', ttl: 3600, idle: 1, expected: { lifespan: 3_600_000, maxIdle: 1_000 } },
  { rule: '-0 is 0', ttl: -0, idle: -0, expected: DEFAULTS },
];

describe('resolveExpiry (docs/reference/data-plane.md#expiration)', () => {
  for (const { rule, ttl, idle, expected } of ROWS) {
    it(`${rule} (timeToLiveSeconds=${JSON.stringify(ttl)}, maxIdleTimeSeconds=${JSON.stringify(idle)})`, () => {
      expect(resolveExpiry(DEFAULTS, ttl, idle)).to.deep.equal(expected);
    });
  }

  it('with immortal defaults, absent headers keep the entry immortal', () => {
    expect(resolveExpiry({ lifespan: -1, maxIdle: -1 }, undefined, undefined)).to.deep.equal({ lifespan: -1, maxIdle: -1 });
  });
});
