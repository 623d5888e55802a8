import { DeclarationError, isGridError } from '../../errors';
import type { CacheDefinition } from '../cache-config';
import type { CounterConfig } from '../counter-config';

/** A cache or a template (`*-configuration`): one namespace, as in the original's `caches`. */
export interface DeclaredCache {
  name: string;
  template: boolean;
  definition: CacheDefinition;
  /** The file it was read from. */
  source: string;
}

export interface DeclaredCounter {
  name: string;
  config: CounterConfig;
  source: string;
}

export interface DeclaredSchema {
  name: string;
  content: string;
  source: string;
}

export interface DeclaredRole {
  name: string;
  permissions: string[];
  source: string;
}

/** A part of the original's format grid does not implement: reported once at start, never applied. */
export interface IgnoredPart {
  source: string;
  /** Its path in the document, e.g. `infinispan.server.endpoints`. */
  element: string;
  reason: string;
}

/** What the `--config` files declare, in file and document order. */
export interface Declarations {
  caches: DeclaredCache[];
  counters: DeclaredCounter[];
  schemas: DeclaredSchema[];
  roles: DeclaredRole[];
  ignored: IgnoredPart[];
}

export function emptyDeclarations(): Declarations {
  return { caches: [], counters: [], schemas: [], roles: [], ignored: [] };
}

/**
 * The files' declarations together: a resource declared again by a later file (or later in the
 * same one) takes the later definition and keeps the first one's place, so a template still comes
 * before the caches that name it.
 */
export function mergeDeclarations(sets: readonly Declarations[]): Declarations {
  return {
    caches: byName(sets.flatMap((s) => s.caches)),
    counters: byName(sets.flatMap((s) => s.counters)),
    schemas: byName(sets.flatMap((s) => s.schemas)),
    roles: byName(sets.flatMap((s) => s.roles)),
    ignored: sets.flatMap((s) => s.ignored),
  };
}

function byName<T extends { name: string }>(items: readonly T[]): T[] {
  const out = new Map<string, T>();
  for (const item of items) {
    // a Map keeps the first insertion's place when a key is set again
    out.set(item.name, item);
  }
  return [...out.values()];
}

/** Runs `read`, naming where a failure comes from: `FILE: cache 'orders': ISPN000327: …`. */
export function within<T>(where: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (isGridError(err)) throw new DeclarationError(`${where}: ${err.message}`);
    throw err;
  }
}
