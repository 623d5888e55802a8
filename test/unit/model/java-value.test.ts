import { expect } from 'chai';
import { EncodingError } from '../../../src/errors';
import { parseJavaText } from '../../../src/model/java/java-value';

describe('Java values read from text (JavaMediaTypeCodec)', () => {
  it('reads integers with leading zeros and a sign, whatever their length', () => {
    expect(parseJavaText(`+${'0'.repeat(10_000)}42`, 'java.lang.Integer')).to.deep.equal({ type: 'java.lang.Integer', value: 42n });
    expect(parseJavaText('-9223372036854775808', 'java.lang.Long')).to.deep.equal({ type: 'java.lang.Long', value: -(2n ** 63n) });
  });

  it('refuses an integer out of range with Java\'s text, quoting at most 200 characters of it', () => {
    expect(() => parseJavaText('2147483648', 'java.lang.Integer')).to.throw(EncodingError, 'Value out of range. Value:"2147483648"');
    const digits = '9'.repeat(1_000_000);
    expect(() => parseJavaText(digits, 'java.lang.Long')).to.throw(EncodingError, `Value out of range. Value:"${'9'.repeat(200)}…"`);
  });

  it('reads one character, a surrogate pair included, and refuses more', () => {
    expect(parseJavaText('😀', 'java.lang.Character')).to.deep.equal({ type: 'java.lang.Character', value: '😀' });
    expect(() => parseJavaText('ab', 'java.lang.Character')).to.throw(EncodingError, 'For input string: "ab"');
    expect(() => parseJavaText('x'.repeat(1_000_000), 'java.lang.Character')).to.throw(EncodingError, `For input string: "${'x'.repeat(200)}…"`);
  });
});
