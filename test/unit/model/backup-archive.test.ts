import { expect } from 'chai';
import {
  FrameReader, checkEntryName, decodeCounter, decodeEntry, encodeCounter, encodeEntry, frame, parseNameList, formatNameList,
} from '../../../src/model/backup/backup-archive';
import { parseResources } from '../../../src/model/backup/backup-resources';

describe('backup archive model', () => {
  it('round-trips an entry with its media type, times and limits', () => {
    const e = { key: Buffer.from([0, 1]), value: Buffer.from('v'), valueType: 'text/plain', created: 1_700_000_000_000, lastUsed: 1_700_000_000_500, lifespan: 60_000, maxIdle: -1 };
    expect(decodeEntry(encodeEntry(e))).to.deep.equal(e);
    expect(decodeEntry(encodeEntry({ ...e, valueType: null })).valueType).to.equal(null);
  });

  it('round-trips a counter with a negative value', () => {
    const c = { name: 'c', configuration: '{"weak-counter":{}}', value: -5n };
    expect(decodeCounter(encodeCounter(c))).to.deep.equal(c);
  });

  it('splits framed records across arbitrary chunk boundaries', () => {
    const bytes = Buffer.concat([frame(Buffer.from('abc')), frame(Buffer.alloc(0)), frame(Buffer.from('defgh'))]);
    const r = new FrameReader();
    const out = [...bytes].flatMap((b) => r.push(Buffer.from([b]))).map((b) => b.toString());
    r.end();
    expect(out).to.deep.equal(['abc', '', 'defgh']);
    const truncated = new FrameReader();
    truncated.push(bytes.subarray(0, 5));
    expect(() => truncated.end()).to.throw();
  });

  it('lists names encoded, so a comma inside one does not split it', () => {
    expect(parseNameList(formatNameList(['a,b', 'c']))).to.deep.equal(['a,b', 'c']);
  });

  it('refuses hostile entry names', () => {
    for (const bad of ['/etc/passwd', 'C:/x', 'a/../b', '..', 'a\\b', 'a//b', '']) expect(checkEntryName(bad), bad).to.be.a('string');
    expect(checkEntryName('containers/default/caches/a/a.dat')).to.equal(undefined);
  });

  it('reads selectors: none = all, ["*"] = all of a type, cache-configs = templates, unknown keys refused', () => {
    expect(parseResources(undefined).caches).to.equal('all');
    expect(parseResources({ 'Cache-Configs': ['t'], caches: ['*'] })).to.deep.equal({ templates: ['t'], caches: 'all' });
    expect(() => parseResources({ widgets: [] })).to.throw("Type with name 'widgets' does not exist");
    expect(() => parseResources({ caches: 'x' })).to.throw();
  });
});
