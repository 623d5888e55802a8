import { expect } from 'chai';
import { InvalidMediaTypeError } from '../../../src/errors';
import { formatMediaType, matches, parseMediaType, parseMediaTypeList, type MediaType } from '../../../src/model/media/media-type';
import { thrown } from '../../support/thrown';

function essences(list: MediaType[]): string[] {
  return list.map((m) => `${m.type}/${m.subtype}`);
}

describe('parseMediaType (docs/reference/media-types.md#media-type-syntax)', () => {
  it('reads type, subtype and parameters', () => {
    const m = parseMediaType('application/x-java-object; type=java.lang.Integer; charset=UTF-8');
    expect(m.type).to.equal('application');
    expect(m.subtype).to.equal('x-java-object');
    expect(m.params).to.deep.equal({ type: 'java.lang.Integer', charset: 'UTF-8' });
    expect(m.weight).to.equal(1);
  });

  it('keeps the text as the client sent it, for responses that echo it', () => {
    expect(parseMediaType('  text/plain;charset=UTF-8 ').raw).to.equal('text/plain;charset=UTF-8');
  });

  it('compares type, subtype and parameter names without case, and keeps parameter values as sent', () => {
    const m = parseMediaType('Text/PLAIN; CharSet=UTF-8');
    expect([m.type, m.subtype]).to.deep.equal(['text', 'plain']);
    expect(m.params).to.deep.equal({ charset: 'UTF-8' });
  });

  it('unquotes quoted parameter values', () => {
    expect(parseMediaType('text/plain; charset="utf-8"').params.charset).to.equal('utf-8');
  });

  it('reads */* as the match-all type', () => {
    const m = parseMediaType('*/*');
    expect([m.type, m.subtype]).to.deep.equal(['*', '*']);
  });

  it('reads q as the weight, not as a parameter', () => {
    const m = parseMediaType('application/json;q=0.8');
    expect(m.weight).to.equal(0.8);
    expect(m.params).to.deep.equal({});
  });

  it('rejects an empty media type with ISPN000929 (400)', () => {
    for (const text of ['', '   ']) {
      const err = thrown(() => parseMediaType(text));
      expect(err).to.be.instanceOf(InvalidMediaTypeError);
      expect(err.status).to.equal(400);
      expect(err.message).to.match(/^ISPN000929: /);
    }
  });

  it('rejects a media type without type and subtype separated by / with ISPN000930 (400)', () => {
    for (const text of ['text', 'text/', '/plain', 'text plain']) {
      const err = thrown(() => parseMediaType(text));
      expect(err.status, text).to.equal(400);
      expect(err.message, text).to.equal(`ISPN000930: Invalid media type '${text}': must contain a type and a subtype separated by '/'`);
    }
  });

  it('rejects a weight that is not a number with ISPN000935 (400)', () => {
    for (const text of ['text/plain;q=high', 'text/plain;q=']) {
      const err = thrown(() => parseMediaType(text));
      expect(err.status, text).to.equal(400);
      expect(err.message, text).to.match(/^ISPN000935: /);
    }
  });
});

describe('parseMediaTypeList (docs/reference/media-types.md#media-type-syntax, docs/reference/media-types.md#read-negotiation)', () => {
  it('puts the highest weight first; no q counts as 1.0', () => {
    const list = parseMediaTypeList('text/plain;q=0.1, application/json;q=0.8, */*;q=0.7');
    expect(essences(list)).to.deep.equal(['application/json', '*/*', 'text/plain']);
    expect(list.map((m) => m.weight)).to.deep.equal([0.8, 0.7, 0.1]);
  });

  it('keeps header order among equal weights', () => {
    const list = parseMediaTypeList('text/html, application/xml;q=0.5, application/xhtml+xml, text/plain;q=0.5, */*');
    expect(essences(list)).to.deep.equal(['text/html', 'application/xhtml+xml', '*/*', 'application/xml', 'text/plain']);
  });

  it('reads each element with its own parameters', () => {
    const [first, second] = parseMediaTypeList('text/plain; charset=ISO-8859-1, application/x-java-object;type=java.lang.Long');
    expect(first.params).to.deep.equal({ charset: 'ISO-8859-1' });
    expect(second.params).to.deep.equal({ type: 'java.lang.Long' });
  });

  it('rejects an empty list with ISPN000929', () => {
    for (const text of ['', ' , ']) expect(thrown(() => parseMediaTypeList(text)).message, text).to.match(/^ISPN000929: /);
  });

  it('rejects the whole list when one element has no subtype (ISPN000930)', () => {
    expect(thrown(() => parseMediaTypeList('ignored, text/plain')).message).to.match(/^ISPN000930: Invalid media type 'ignored'/);
  });

  it('rejects the whole list when one weight is bad (ISPN000935)', () => {
    expect(thrown(() => parseMediaTypeList('text/plain, application/json;q=x')).message).to.match(/^ISPN000935: /);
  });
});

describe('matches (docs/reference/media-types.md#media-type-syntax)', () => {
  const table: Array<[string, string, boolean]> = [
    ['text/plain', 'text/plain', true],
    ['*/*', 'application/json', true],
    ['application/json', '*/*', true],
    ['*/*', '*/*', true],
    ['text/plain', 'application/json', false],
    // Partial wildcards are not understood: they match nothing but themselves.
    ['text/*', 'text/plain', false],
    ['text/plain', 'text/*', false],
  ];
  for (const [a, b, expected] of table) {
    it(`${a} ${expected ? 'matches' : 'does not match'} ${b}`, () => expect(matches(a, b)).to.equal(expected));
  }
});

describe('formatMediaType', () => {
  it('writes type/subtype with the parameters and without the q-weight', () => {
    expect(formatMediaType(parseMediaType('Application/X-Java-Object; type=java.lang.Integer; q=0.5'))).to.equal('application/x-java-object;type=java.lang.Integer');
  });

  it('writes a type without parameters as type/subtype', () => {
    expect(formatMediaType(parseMediaType('text/plain'))).to.equal('text/plain');
  });
});
