import { defineError } from './define-error';

/** `GET|DELETE|POST ?action=` of an undefined counter: 404, empty body (docs/reference/management-plane.md#counter-read-delete-list). */
export class CounterNotFoundError extends defineError({ code: 'COUNTER_NOT_FOUND', status: 404 }) {}

/** A JSON body without a `weak-counter` / `strong-counter` element (the original's NoSuchElementException). */
export class NoCounterElementError extends defineError({
  code: 'NO_COUNTER_ELEMENT', status: 404,
  text: () => 'No counter configuration found: expected "weak-counter" or "strong-counter"',
}) {}

/** POST of a name already defined: 304 with the original's text. */
export class CounterExistsError extends defineError({
  code: 'COUNTER_EXISTS', status: 304,
  text: (name: string) => `Unable to create counter: ${name}`,
}) {}

export class InvalidCounterConfigurationError extends defineError({
  code: 'INVALID_COUNTER_CONFIGURATION', status: 400,
  text: (message: string) => message,
  summary: "what is wrong with the counter's definition, the original's text where it has one (`ISPN029508`, `ISPN029509`…)",
}) {}

/** A STRONG-only action on a weak counter (CounterException → 500, as the original). */
export class InvalidCounterTypeError extends defineError({
  code: 'INVALID_COUNTER_TYPE', status: 500, ispn: 'ISPN029514',
  text: (actual: string) => `Invalid counter type. Expected=StrongCounter but got ${actual}`,
}) {}

/** A bounded strong counter reached a bound (CounterOutOfBoundsException → 500). */
export class CounterOutOfBoundsError extends defineError({
  code: 'COUNTER_OUT_OF_BOUNDS', status: 500, ispn: 'ISPN029501',
  text: (bound: 'Upper bound' | 'Lower bound') => `${bound} reached.`,
}) {}
