import { expect } from 'chai';
import { DigestNonces } from '../../../src/services/auth/digest-nonces';
import { ManualClock } from '../../../src/util/clock';

describe('DigestNonces', () => {
  let clock: ManualClock;
  let nonces: DigestNonces;
  beforeEach(() => {
    clock = new ManualClock(1_000_000);
    nonces = new DigestNonces(clock);
  });

  it('issues distinct nonces, even within one millisecond', () => {
    expect(nonces.issue()).to.not.equal(nonces.issue());
  });

  it('accepts each nonce count once; a count far below the highest seen is stale', () => {
    const n = nonces.issue();
    expect(nonces.use(n, 1)).to.equal('fresh');
    expect(nonces.use(n, 1)).to.equal('stale');
    expect(nonces.use(n, 40)).to.equal('fresh');
    expect(nonces.use(n, 8), '32 below the highest').to.equal('fresh');
    expect(nonces.use(n, 7), '33 below the highest').to.equal('stale');
    expect(nonces.use(n, 8)).to.equal('stale');
  });

  it('keeps the window right across a jump of exactly 32', () => {
    const n = nonces.issue();
    expect(nonces.use(n, 1)).to.equal('fresh');
    expect(nonces.use(n, 33)).to.equal('fresh');
    expect(nonces.use(n, 1)).to.equal('stale');
    expect(nonces.use(n, 2)).to.equal('fresh');
  });

  it('uses a nonce without a count once, and never mixes the two', () => {
    const a = nonces.issue();
    expect(nonces.use(a, undefined)).to.equal('fresh');
    expect(nonces.use(a, undefined)).to.equal('stale');
    expect(nonces.use(a, 2)).to.equal('stale');
    const b = nonces.issue();
    expect(nonces.use(b, 1)).to.equal('fresh');
    expect(nonces.use(b, undefined)).to.equal('stale');
  });

  it('refuses nonces it did not issue or that were tampered with', () => {
    const n = nonces.issue();
    expect(nonces.use(n.replace(/^[^.]+/, (clock.now() + 1).toString(36)), 1)).to.equal('stale');
    expect(nonces.use(new DigestNonces(clock).issue(), 1)).to.equal('stale');
    expect(nonces.use('garbage', 1)).to.equal('stale');
  });

  it('never reopens an evicted nonce to replay: everything issued before it is stale once pushed out', () => {
    const first = nonces.issue();
    expect(nonces.use(first, 1)).to.equal('fresh');
    const waiting = nonces.issue(); // issued, not used yet
    clock.advance(1);
    for (let i = 0; i < 10_000; i++) expect(nonces.use(nonces.issue(), 1)).to.equal('fresh');
    expect(nonces.use(first, 1), 'evicted, replayed').to.equal('stale');
    expect(nonces.use(first, 2), 'evicted: the client must fetch a new nonce').to.equal('stale');
    expect(nonces.use(waiting, 1)).to.equal('stale');
    expect(nonces.use(nonces.issue(), 1)).to.equal('fresh');
  });
});
