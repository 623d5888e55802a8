import { expect } from 'chai';
import { GridError } from '../../src/errors';

/** Runs `fn` and returns the GridError it threw (of `type` when given); fails the test when it did not throw. */
export function thrown<T extends GridError = GridError>(fn: () => unknown, type: new (...args: never[]) => T = GridError as never): T {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(type);
    return err as T;
  }
  expect.fail('expected an error');
}
