import { expect } from 'chai';
import { parseDurationMs, parseSizeBytes } from '../../../../src/model/cache-config';

describe('parseDurationMs', () => {
  const table: Array<[string, number | undefined]> = [
    ['60000', 60000], ['-1', -1], ['500ms', 500], ['5s', 5000], ['5m', 300000], ['1h', 3600000], ['2d', 172800000],
    ['1.5s', 1500], ['0.0015s', 1], ['10 s', 10000], ['1.5', undefined], ['5w', undefined], ['', undefined], ['s', undefined],
  ];
  for (const [text, ms] of table) {
    it(`reads ${JSON.stringify(text)} as ${ms ?? 'invalid'}`, () => expect(parseDurationMs(text)).to.equal(ms));
  }
});

describe('parseSizeBytes', () => {
  const table: Array<[string, number | undefined]> = [
    ['1000', 1000], ['10B', 10], ['10KB', 10_000], ['400MB', 400_000_000], ['1GB', 1e9], ['2TB', 2e12],
    ['1KiB', 1024], ['1.5KiB', 1536], ['1 GiB', 1024 ** 3], ['1.5', undefined], ['1.0005KB', undefined],
    ['-1', undefined], ['10kb', undefined], ['10XB', undefined],
  ];
  for (const [text, bytes] of table) {
    it(`reads ${JSON.stringify(text)} as ${bytes ?? 'invalid'}`, () => expect(parseSizeBytes(text)).to.equal(bytes));
  }
});
