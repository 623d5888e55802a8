import type { Condition } from '../../model/ickle/analyzed-query';
import type { ExecutableQuery } from './executable-query';

/** What the remembered queries may hold together, estimated (see `estimatedBytes`). */
export const MEMO_BYTES = 32 * 1024 * 1024;
/** Longer query texts are compiled for each run and not remembered. */
export const MEMO_MAX_TEXT = 10_000;
/** Heap a compiled query holds per character of its text (its conditions and matchers): measured 5 (IN lists) to 60 (ORs of comparisons). */
const BYTES_PER_CHAR = 64;
/** A regexp's automaton cache grows with use up to 8 MiB (re2js' DFA budget). */
const BYTES_PER_REGEXP = 8 * 1024 * 1024;

/**
 * Compiled queries by text, least recently used first out, bounded by their estimated size rather
 * than their number: 256 distinct 99 KB LIKE queries once kept ~700 MB.
 */
export class QueryMemo {
  private readonly entries = new Map<string, { exec: ExecutableQuery; bytes: number }>();
  private bytes = 0;

  get(id: string): ExecutableQuery | undefined {
    const e = this.entries.get(id);
    if (!e) return undefined;
    this.entries.delete(id);
    this.entries.set(id, e);
    return e.exec;
  }

  set(id: string, exec: ExecutableQuery): void {
    const text = exec.query.text;
    if (text.length > MEMO_MAX_TEXT) return;
    const bytes = estimatedBytes(id, exec);
    this.delete(id);
    while (this.entries.size > 0 && this.bytes + bytes > MEMO_BYTES) this.delete(this.entries.keys().next().value as string);
    if (bytes > MEMO_BYTES) return;
    this.entries.set(id, { exec, bytes });
    this.bytes += bytes;
  }

  delete(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    this.bytes -= e.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The estimated bytes held, for tests. */
  get heldBytes(): number {
    return this.bytes;
  }
}

function estimatedBytes(id: string, exec: ExecutableQuery): number {
  return id.length * 2 + exec.query.text.length * BYTES_PER_CHAR + regexpsOf(exec.query.where) * BYTES_PER_REGEXP;
}

function regexpsOf(c: Condition): number {
  switch (c.kind) {
    case 'and': case 'or': return c.items.reduce((n, i) => n + regexpsOf(i), 0);
    case 'not': return regexpsOf(c.item);
    case 'text': return c.match.kind === 'regexp' ? 1 : 0;
    default: return 0;
  }
}
