import { expect } from 'chai';
import { compareNullable, compareScalars } from '../../../../src/grid/query/compare';

describe('compareScalars: the engine order', () => {
  it('orders longs exactly, a bigint beyond 2^53 against a number or another bigint', () => {
    expect(compareScalars(9007199254740993n, 9007199254740992n)).to.equal(1);
    expect(compareScalars(9007199254740992n, 9007199254740991)).to.equal(1);
    expect(compareScalars(9007199254740991, 9007199254740992n)).to.equal(-1);
    expect(compareScalars(-(2n ** 63n), -9007199254740991)).to.equal(-1);
    expect(compareScalars(9007199254740993n, 9007199254740993n)).to.equal(0);
    expect(compareNullable(null, 2n ** 63n - 1n)).to.equal(-1);
  });

  it('keeps numbers as they were: NaN last, -0 equal to 0, a double against an integer', () => {
    expect(compareScalars(NaN, 1)).to.equal(1);
    expect(compareScalars(-0, 0)).to.equal(0);
    expect(compareScalars(2.5, 2)).to.equal(1);
  });
});
