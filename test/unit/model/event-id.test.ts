import { expect } from 'chai';
import { compareEventIds, parseEventId } from '../../../src/model/event-id';

describe('event ids (a SQLite number or a Redis Stream id)', () => {
  it('reads a number or two joined by -, without leading zeros, each part up to 2^64 - 1', () => {
    expect(parseEventId('42')).to.equal('42');
    expect(parseEventId('007')).to.equal('7');
    expect(parseEventId('1712345678901-0')).to.equal('1712345678901-0');
    expect(parseEventId('18446744073709551615-18446744073709551615')).to.equal('18446744073709551615-18446744073709551615');
  });

  it('refuses anything else', () => {
    for (const text of ['', 'abc', '-1', '1-', '-', '1-2-3', ' 1', '1.5', '0x10', '18446744073709551616', '1-18446744073709551616', '123456789012345678901']) {
      expect(parseEventId(text), text).to.equal(undefined);
    }
  });

  it('orders by milliseconds then sequence, a lone number being n-0', () => {
    expect(compareEventIds('5', '5-0')).to.equal(0);
    expect(compareEventIds('5-1', '5')).to.equal(1);
    expect(compareEventIds('9-99', '10')).to.equal(-1);
    expect(compareEventIds('18446744073709551615', '18446744073709551614-9')).to.equal(1);
  });
});
