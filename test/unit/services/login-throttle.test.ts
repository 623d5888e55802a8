import { expect } from 'chai';
import { LoginThrottle } from '../../../src/services/auth/login-throttle';
import { ManualClock } from '../../../src/util/clock';

describe('LoginThrottle', () => {
  let clock: ManualClock;
  let t: LoginThrottle;
  beforeEach(() => {
    clock = new ManualClock(1_000_000);
    t = new LoginThrottle(clock);
  });
  const fail = (address: string, name: string, times: number) => { for (let i = 0; i < times; i++) t.failed(address, name); };

  it('waits 1 s after 5 failures of one (address, user), doubling per further failure up to 5 minutes', () => {
    fail('a', 'u', 4);
    expect(t.retryAfter('a', 'u')).to.equal(0);
    fail('a', 'u', 1);
    expect(t.retryAfter('a', 'u')).to.equal(1000);
    fail('a', 'u', 1);
    expect(t.retryAfter('a', 'u')).to.equal(2000);
    expect(t.retryAfter('b', 'u'), 'another address').to.equal(0);
    expect(t.retryAfter('a', 'v'), 'another user').to.equal(0);
    fail('a', 'u', 20);
    expect(t.retryAfter('a', 'u')).to.equal(5 * 60_000);
    clock.advance(60_000);
    expect(t.retryAfter('a', 'u')).to.equal(4 * 60_000);
  });

  it('forgets failures 15 minutes after the last one', () => {
    fail('a', 'u', 10);
    clock.advance(15 * 60_000 + 1);
    expect(t.retryAfter('a', 'u')).to.equal(0);
    fail('a', 'u', 1);
    expect(t.retryAfter('a', 'u'), 'counting restarted').to.equal(0);
  });

  it('caps the per-user delay at one minute and exempts addresses the user logged in from', () => {
    t.succeeded('home', 'u');
    for (let i = 0; i < 30; i++) t.failed(`x${i}`, 'u');
    expect(t.retryAfter('new', 'u')).to.equal(60_000);
    expect(t.retryAfter('home', 'u')).to.equal(0);
  });

  it('a success clears the pair and the name, not the address', () => {
    for (let i = 0; i < 20; i++) t.failed('a', `n${i}`);
    fail('a', 'u', 5);
    t.succeeded('a', 'u');
    expect(t.retryAfter('a', 'u'), 'trusted pair, cleared').to.equal(0);
    expect(t.retryAfter('a', 'someone-else')).to.be.greaterThan(0);
  });

  it('knows an address where anybody logged in, for a day', () => {
    expect(t.isKnownAddress('a')).to.equal(false);
    t.failed('a', 'u');
    expect(t.isKnownAddress('a'), 'a failure does not make it known').to.equal(false);
    t.succeeded('a', 'u');
    expect(t.isKnownAddress('a')).to.equal(true);
    expect(t.isKnownAddress('b')).to.equal(false);
    clock.advance(24 * 60 * 60_000 + 1);
    expect(t.isKnownAddress('a')).to.equal(false);
  });
});
