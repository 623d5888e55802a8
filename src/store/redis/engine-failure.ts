import { EngineUnavailableError, GridError } from '../../errors';

/**
 * What a failed command of the cluster becomes (docs/scale-out.md, "When Redis fails"): a client's
 * mistake stays what it is, anything else — a node that does not answer within the command
 * timeout, a failover under way, a refused write — is a 503 that says why and asks to retry.
 */
export function engineFailure(err: unknown): never {
  if (err instanceof GridError) throw err;
  const message = err instanceof Error ? err.message : String(err);
  throw new EngineUnavailableError(message.split('\n')[0].slice(0, 200));
}
