import { expect } from 'chai';
import { parseHeaderDate, parseMinFresh, parseSeconds } from '../../../src/http/request-headers';

describe('request header parsers (docs/reference/data-plane.md#request-headers)', () => {
  describe('parseSeconds: timeToLiveSeconds and maxIdleTimeSeconds, read like Java\'s Long.valueOf', () => {
    const rows: Array<[string | undefined, number | undefined]> = [
      ['10', 10], ['-1', -1], ['+7', 7], ['0', 0], ['00', 0], [' 5 ', 5], ['999999999999999', 999_999_999_999_999],
      // anything else counts as absent: the cache's default applies
      [undefined, undefined], ['', undefined], [' ', undefined], ['soon', undefined], ['1.5', undefined], ['1e3', undefined],
      ['0x10', undefined], ['9999999999999999', undefined], ['--1', undefined],
    ];
    for (const [text, seconds] of rows) {
      it(`${JSON.stringify(text)} → ${seconds}`, () => expect(parseSeconds(text)).to.equal(seconds));
    }
  });

  describe('parseHeaderDate: If-Modified-Since and If-Unmodified-Since', () => {
    it('reads an HTTP date as epoch ms', () => {
      expect(parseHeaderDate('Wed, 01 May 2024 10:00:00 GMT')).to.equal(Date.UTC(2024, 4, 1, 10));
    });

    it('keeps the text of a value that is no date, for the 400 the conditions answer', () => {
      expect(parseHeaderDate('yesterday-ish')).to.deep.equal({ unreadable: 'yesterday-ish' });
    });
  });

  describe('parseMinFresh: Cache-Control min-fresh', () => {
    const rows: Array<[string | undefined, number | undefined]> = [
      ['min-fresh=10', 10], ['no-cache, min-fresh=5', 5], ['min-fresh=007', 7],
      [undefined, undefined], ['no-cache', undefined], ['min-fresh=x', undefined], ['min-fresh=-5', undefined],
    ];
    for (const [text, seconds] of rows) {
      it(`${JSON.stringify(text)} → ${seconds}`, () => expect(parseMinFresh(text)).to.equal(seconds));
    }
  });
});
