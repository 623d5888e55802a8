import { GridError } from './grid-error';

type Headers = Readonly<Record<string, string | string[]>>;

/**
 * One error of the catalogue as data: what the client gets (status, body, headers) and the code
 * programs tell it apart by. docs/reference/errors.md#error-codes lists every declaration; its
 * test (test/unit/errors/error-catalogue.test.ts) reads them, not the source.
 */
export interface ErrorDeclaration<A extends unknown[] = never[]> {
  /** Stable UPPER_SNAKE code, one per declaration. */
  readonly code: string;
  /** The HTTP status; a list when the caller chooses one of them, as the first argument. */
  readonly status: number | readonly number[];
  /** The original server's message id: the body is `<ispn>: <text>`. */
  readonly ispn?: `ISPN${string}`;
  /** The body's text from the constructor's arguments; none: the original answers without a body. */
  readonly text?: (...args: A) => string;
  /** Response headers the answer carries (a challenge, `Retry-After`). */
  readonly headers?: (...args: A) => Headers;
  /**
   * What the body says, for the docs, where filling each argument with `…` does not show it: a
   * text the caller writes whole, or one that takes another form for some arguments.
   */
  readonly summary?: string;
}

/** A class made from a declaration: `new CacheNotFoundError(name)`, `err instanceof CacheNotFoundError`. */
export interface DeclaredError<A extends unknown[], E extends GridError = GridError> {
  new (...args: A): E;
  readonly declaration: ErrorDeclaration<A>;
}

type ErrorFamily = abstract new (...args: never[]) => GridError;

/**
 * The base class of one declared error; the catalogue's classes extend it so that they keep their
 * names: `export class CacheNotFoundError extends defineError({ code: 'CACHE_NOT_FOUND', … }) {}`.
 * `family` is a class the error also belongs to (`QueryError`, or another declared error such as
 * `InvalidConfigurationError`); a subclass may add fields a catcher reads (`AliasInUseError`).
 */
export function defineError<A extends unknown[] = [], F extends ErrorFamily = typeof GridError>(
  declaration: ErrorDeclaration<A>, family?: F,
): DeclaredError<A, InstanceType<F>> {
  const base = (family ?? GridError) as unknown as new (...args: unknown[]) => GridError;
  // a declared family builds the error itself, from the most derived class's declaration
  const passOn = 'declaration' in base;
  class Declared extends base {
    static readonly declaration = declaration;
    constructor(...args: unknown[]) {
      super(...(passOn ? args : gridErrorArguments((new.target as unknown as DeclaredError<unknown[]>).declaration, args)));
    }
  }
  return Declared as unknown as DeclaredError<A, InstanceType<F>>;
}

function gridErrorArguments(d: ErrorDeclaration<unknown[]>, args: unknown[]): [number, string, string, Headers | undefined] {
  const status = typeof d.status === 'number' ? d.status : args[0] as number;
  const text = d.text ? d.text(...args) : '';
  return [status, d.code, d.ispn ? `${d.ispn}: ${text}` : text, d.headers?.(...args)];
}
