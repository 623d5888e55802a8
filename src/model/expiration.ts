/** Lifespan and max-idle of an entry in ms; -1 means "not limited". */
export interface Expiry {
  lifespan: number;
  maxIdle: number;
}

function toMs(s: number): number {
  return s < 0 ? -1 : s * 1000;
}

/**
 * Resolves the `timeToLiveSeconds` / `maxIdleTimeSeconds` a request sent (whole seconds; undefined
 * when absent or not a number, docs/reference/data-plane.md#request-headers) against the cache's defaults, by
 * docs/reference/data-plane.md#expiration:
 *  1. absent → configured default;  2. negative → never;  3. both 0 → both defaults;
 *  4. only max-idle 0 → default max-idle, lifespan from its header or -1 when absent;
 *  5. only ttl 0 → default lifespan, max-idle from its header or -1 when absent.
 * Rules 4 and 5 differ from the original server, which takes the default for the absent header
 * (docs/compatibility.md).
 */
export function resolveExpiry(defaults: Expiry, ttl: number | undefined, idle: number | undefined): Expiry {
  if (ttl === 0 && idle === 0) return { ...defaults };
  if (idle === 0) return { lifespan: ttl === undefined ? -1 : toMs(ttl), maxIdle: defaults.maxIdle };
  if (ttl === 0) return { lifespan: defaults.lifespan, maxIdle: idle === undefined ? -1 : toMs(idle) };
  return {
    lifespan: ttl === undefined ? defaults.lifespan : toMs(ttl),
    maxIdle: idle === undefined ? defaults.maxIdle : toMs(idle),
  };
}
