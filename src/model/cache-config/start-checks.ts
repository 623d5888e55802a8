import { MaxIdleWithStoreError } from '../../errors';
import { findChild } from './config-element';
import { parseDurationMs } from './quantities';
import { STORE_ELEMENTS } from './schema';
import type { CacheDefinition } from './types';

/**
 * The checks the original makes when a cache starts (PersistenceManagerImpl), not when its
 * document is parsed: grid makes them when a cache is created or its definition changes. Caches
 * already stored are not checked again at start, so none becomes unreachable (docs/compatibility.md).
 */
export function checkStartable(def: CacheDefinition): void {
  const expiration = findChild(def.root, 'expiration');
  const maxIdleText = expiration?.attributes['max-idle'];
  const hasMaxIdle = typeof maxIdleText === 'string' && (parseDurationMs(maxIdleText) ?? -1) > 0;
  if (!hasMaxIdle) return;
  const persistence = findChild(def.root, 'persistence');
  if (!persistence || persistence.attributes.passivation === true) return;
  // a read-only store is never written, so it keeps no idle times to lose
  const writable = persistence.children.some((c) => STORE_ELEMENTS.includes(c.name) && c.attributes['read-only'] !== true);
  if (writable) throw new MaxIdleWithStoreError();
}
