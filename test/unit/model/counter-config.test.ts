import { expect } from 'chai';
import { InvalidCounterConfigurationError, MethodRequiresContentError, NoCounterElementError } from '../../../src/errors';
import { formatCounterConfig, LONG_MAX, LONG_MIN, parseCounterConfig } from '../../../src/model/counter-config';
import { thrown } from '../../support/thrown';

describe('parseCounterConfig (docs/reference/management-plane.md#counter-config)', () => {
  it('reads a weak counter with defaults', () => {
    const c = parseCounterConfig('{"weak-counter":{"initial-value":5}}');
    expect(c).to.include({ kind: 'weak-counter', initialValue: 5n, storage: 'VOLATILE', concurrencyLevel: 16, bounded: false });
  });

  it('reads a bounded strong counter, numbers or numeric strings, and the legacy {"value": n} form', () => {
    const c = parseCounterConfig('{"strong-counter":{"initial-value":"1","storage":"PERSISTENT","lower-bound":{"value":0},"upper-bound":100,"lifespan":-1}}');
    expect(c).to.include({ kind: 'strong-counter', initialValue: 1n, storage: 'PERSISTENT', bounded: true, lowerBound: 0n, upperBound: 100n, lifespan: -1n });
  });

  it('keeps 64-bit integers exact above 2^53', () => {
    const c = parseCounterConfig('{"strong-counter":{"initial-value":9007199254740993,"upper-bound":9223372036854775807}}');
    expect(c.initialValue).to.equal(9007199254740993n);
    expect(c.upperBound).to.equal(LONG_MAX);
    expect(c.lowerBound).to.equal(LONG_MIN);
  });

  it('ignores a name attribute', () => {
    expect(parseCounterConfig('{"weak-counter":{"name":"x"}}').kind).to.equal('weak-counter');
  });

  it('refuses empty bodies, bad JSON, unknown attributes and values out of range', () => {
    expect(thrown(() => parseCounterConfig(''), MethodRequiresContentError).message).to.equal('ISPN012031: Method requires content');
    expect(thrown(() => parseCounterConfig('{oops'), InvalidCounterConfigurationError).status).to.equal(400);
    expect(thrown(() => parseCounterConfig('{"weak-counter":{"colour":"red"}}'), InvalidCounterConfigurationError).message).to.contain("'colour'");
    expect(thrown(() => parseCounterConfig('{"weak-counter":{"initial-value":9223372036854775808}}'), InvalidCounterConfigurationError).status).to.equal(400);
    expect(thrown(() => parseCounterConfig('{"weak-counter":{"initial-value":1.5}}'), InvalidCounterConfigurationError).status).to.equal(400);
    expect(thrown(() => parseCounterConfig('{"weak-counter":{"storage":"SOMETIMES"}}'), InvalidCounterConfigurationError).status).to.equal(400);
    expect(thrown(() => parseCounterConfig('{"weak-counter":{"lower-bound":1}}'), InvalidCounterConfigurationError).status).to.equal(400);
  });

  it('answers 404 for a JSON object without a counter element', () => {
    expect(thrown(() => parseCounterConfig('{}'), NoCounterElementError).status).to.equal(404);
  });

  it('refuses equal bounds with ISPN029524 and an initial value outside them with ISPN029508', () => {
    expect(thrown(() => parseCounterConfig('{"strong-counter":{"lower-bound":5,"upper-bound":5,"initial-value":5}}')).message)
      .to.equal("ISPN029524: Lower bound (5) and upper bound (5) can't be the same.");
    expect(thrown(() => parseCounterConfig('{"strong-counter":{"lower-bound":0,"upper-bound":5,"initial-value":6}}')).message)
      .to.equal('ISPN029508: Invalid initial value for counter. It must be between 0 and 5 (inclusive) but was 6');
  });

  it('refuses a concurrency-level below 1 with ISPN029509', () => {
    expect(thrown(() => parseCounterConfig('{"weak-counter":{"concurrency-level":0}}')).message)
      .to.equal('ISPN029509: Invalid concurrency-level. It must be higher than zero but it was 0');
  });
});

describe('formatCounterConfig', () => {
  it('writes every attribute with numbers as strings', () => {
    expect(formatCounterConfig(parseCounterConfig('{"weak-counter":{"initial-value":5,"concurrency-level":6}}'), false))
      .to.equal('{"weak-counter":{"initial-value":"5","storage":"VOLATILE","concurrency-level":"6"}}');
    expect(JSON.parse(formatCounterConfig(parseCounterConfig('{"strong-counter":{"upper-bound":10}}'), false))).to.deep.equal({
      'strong-counter': { 'initial-value': '0', storage: 'VOLATILE', 'upper-bound': '10', 'lower-bound': '-9223372036854775808', lifespan: '-1' },
    });
    expect(JSON.parse(formatCounterConfig(parseCounterConfig('{"strong-counter":{}}'), false))).to.deep.equal({
      'strong-counter': { 'initial-value': '0', storage: 'VOLATILE', lifespan: '-1' },
    });
  });

  it('round-trips through the parser', () => {
    const c = parseCounterConfig('{"strong-counter":{"initial-value":3,"storage":"PERSISTENT","lower-bound":-4,"upper-bound":9,"lifespan":500}}');
    expect(parseCounterConfig(formatCounterConfig(c, true))).to.deep.equal(c);
  });
});
