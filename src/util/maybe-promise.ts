/** `f` of a value, or of a promised one, without a turn of the event loop when the value is there. */
export function then<T, R>(value: T | Promise<T>, f: (v: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(f) : f(value);
}
