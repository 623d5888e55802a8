import { defineError } from './define-error';

/** The Redis Cluster did not answer in time or failed the command (docs/scale-out.md, "When Redis fails"): 503, retry. */
export class EngineUnavailableError extends defineError({
  code: 'ENGINE_UNAVAILABLE', status: 503,
  text: (reason: string) => `The Redis Cluster could not serve the request (${reason}); retry later`,
  headers: () => ({ 'Retry-After': '1' }),
}) {}

/** A part of the API the redis engine does not serve yet (docs/scale-out.md, "Not there yet"): 501 with what it is. */
export class NotOnEngineError extends defineError({
  code: 'NOT_ON_ENGINE', status: 501,
  text: (what: string) => `${what} is not implemented on the redis engine yet (docs/scale-out.md)`,
}) {}

/**
 * A backup's archive, or an operation running, held by a grid node that is not live now (docs/scale-out.md,
 * "Backups and restores"): 503, ask again once that node runs.
 */
export class HolderNotRunningError extends defineError({
  code: 'HOLDER_NOT_RUNNING', status: 503,
  text: (node: string, address: string) => `The node ${node} (${address}) holds it and is not running: retry once it runs again`,
  headers: () => ({ 'Retry-After': '5' }),
}) {}
