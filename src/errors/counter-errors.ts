import { GridError } from './grid-error';

/** `GET|DELETE|POST ?action=` of an undefined counter: 404, empty body (docs/reference/management-plane.md#counter-read-delete-list). */
export class CounterNotFoundError extends GridError {
  constructor() { super(404, 'COUNTER_NOT_FOUND', ''); }
}

/** A JSON body without a `weak-counter` / `strong-counter` element (the original's NoSuchElementException). */
export class NoCounterElementError extends GridError {
  constructor() { super(404, 'NO_COUNTER_ELEMENT', 'No counter configuration found: expected "weak-counter" or "strong-counter"'); }
}

/** POST of a name already defined: 304 with the original's text. */
export class CounterExistsError extends GridError {
  constructor(name: string) { super(304, 'COUNTER_EXISTS', `Unable to create counter: ${name}`); }
}

export class InvalidCounterConfigurationError extends GridError {
  constructor(message: string) { super(400, 'INVALID_COUNTER_CONFIGURATION', message); }
}

/** A STRONG-only action on a weak counter (CounterException → 500, as the original). */
export class InvalidCounterTypeError extends GridError {
  constructor(actual: string) {
    super(500, 'INVALID_COUNTER_TYPE', `ISPN029514: Invalid counter type. Expected=StrongCounter but got ${actual}`);
  }
}

/** A bounded strong counter reached a bound (CounterOutOfBoundsException → 500). */
export class CounterOutOfBoundsError extends GridError {
  constructor(bound: 'Upper bound' | 'Lower bound') {
    super(500, 'COUNTER_OUT_OF_BOUNDS', `ISPN029501: ${bound} reached.`);
  }
}
