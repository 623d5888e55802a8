/**
 * The one error type the HTTP layer turns into a response: a status, a stable code for programs
 * and the plain-text body the original server sends (message ids such as `ISPN012010` included).
 * An empty `message` means "no body", as the original does for many 404s and 409s. Each error the
 * server raises is declared as data and made a subclass by `defineError` (define-error.ts); a
 * plain GridError is one rebuilt from a worker's reply (services/off-loop/off-loop.ts).
 */
export class GridError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers (for example `WWW-Authenticate`). */
    readonly headers: Readonly<Record<string, string | string[]>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export function isGridError(err: unknown): err is GridError {
  return err instanceof GridError;
}
