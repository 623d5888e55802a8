import { expect } from 'chai';
import { dataLines } from '../../../src/http/sse';

describe('dataLines (the data: lines of one event)', () => {
  it('splits as the original does: trailing empty lines dropped, inner and leading ones kept', () => {
    expect(dataLines('a:\n  b: 1\n')).to.deep.equal(['a:', '  b: 1']);
    expect(dataLines('a\n\nb\n\n\n')).to.deep.equal(['a', '', 'b']);
    expect(dataLines('\na')).to.deep.equal(['', 'a']);
    expect(dataLines('one')).to.deep.equal(['one']);
  });

  it('keeps one empty line for an empty payload and none for a payload of newlines only', () => {
    expect(dataLines('')).to.deep.equal(['']);
    expect(dataLines('\n\n')).to.deep.equal([]);
  });
});
