import { expect } from 'chai';
import { parseJsonExact } from '../../../src/model/exact-json';

describe('parseJsonExact', () => {
  it('gives integer literals as their exact decimal text', () => {
    expect(parseJsonExact('{"a":9223372036854775807,"b":[-1, 18446744073709551615]}')).to.deep.equal({ a: '9223372036854775807', b: ['-1', '18446744073709551615'] });
    expect(parseJsonExact(' 9007199254740993 ')).to.equal('9007199254740993');
  });

  it('keeps numbers with a fraction or an exponent as numbers, whole', () => {
    expect(parseJsonExact('[1.5,-0.25,1e3,2E-2,-1.5e+2]')).to.deep.equal([1.5, -0.25, 1000, 0.02, -150]);
  });

  it('leaves digits inside strings alone, escaped quotes included', () => {
    expect(parseJsonExact('{"k\\"1":"12 \\"34\\" 5","n":7}')).to.deep.equal({ 'k"1': '12 "34" 5', n: '7' });
  });

  it('throws a SyntaxError for text that is not JSON', () => {
    expect(() => parseJsonExact('{"a":1')).to.throw(SyntaxError);
    expect(() => parseJsonExact('"unterminated \\"')).to.throw(SyntaxError);
  });
});
