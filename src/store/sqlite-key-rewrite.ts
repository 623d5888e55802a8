import type { Database } from 'better-sqlite3';

/** The entries of one cache whose keys a data migration may rewrite, and how. */
export interface KeyRewrite {
  cacheId: number;
  /** The new key for `key`, or undefined to keep it. Must be pure: it decides, the store only applies. */
  convert(key: Buffer): Buffer | undefined;
}

export interface KeyRewriteOutcome {
  /** Entries stored under a new key. */
  rewritten: number;
  /** New keys that more than one entry mapped to: the most recently written entry was kept. */
  collisions: number;
}

const PAGE = 500;

const COLUMNS = 'cache_id, key, value, value_type, created_at, last_used_at, lifespan, max_idle, expires_at';

/**
 * Rewrites entry keys once, as the data migration `name`, in one transaction: a first pass pages
 * through the keys (never the values) and notes each rewrite in a temporary table, yielding to the
 * event loop between pages; then SQL moves the entries. When two entries land on one key the most
 * recently written wins (ties: the larger old key), as a later write would have replaced the
 * earlier one had both been addressed as the same key. Undefined when `name` already ran.
 */
export async function rewriteKeys(db: Database, name: string, caches: KeyRewrite[], now: number): Promise<KeyRewriteOutcome | undefined> {
  if (db.prepare('SELECT 1 FROM data_migrations WHERE name = ?').get(name)) return undefined;
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec('CREATE TEMP TABLE key_rewrites (cache_id INTEGER NOT NULL, old_key BLOB NOT NULL, new_key BLOB NOT NULL, PRIMARY KEY (cache_id, old_key)) WITHOUT ROWID');
    const note = db.prepare('INSERT INTO temp.key_rewrites (cache_id, old_key, new_key) VALUES (?, ?, ?)');
    const first = db.prepare('SELECT key FROM entries WHERE cache_id = ? ORDER BY key LIMIT ?').pluck();
    const after = db.prepare('SELECT key FROM entries WHERE cache_id = ? AND key > ? ORDER BY key LIMIT ?').pluck();
    for (const c of caches) {
      let last: Buffer | undefined;
      for (;;) {
        const keys = (last === undefined ? first.all(c.cacheId, PAGE) : after.all(c.cacheId, last, PAGE)) as Buffer[];
        for (const key of keys) {
          const next = c.convert(key);
          if (next && !next.equals(key)) note.run(c.cacheId, key, next);
        }
        if (keys.length < PAGE) break;
        last = keys[keys.length - 1];
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    const outcome = applyRewrites(db);
    db.prepare('INSERT INTO data_migrations (name, applied_at) VALUES (?, ?)').run(name, now);
    db.exec('DROP TABLE temp.key_rewrites; DROP TABLE temp.moved');
    db.exec('COMMIT');
    return outcome;
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    db.exec('DROP TABLE IF EXISTS temp.key_rewrites; DROP TABLE IF EXISTS temp.moved');
    throw err;
  }
}

function applyRewrites(db: Database): KeyRewriteOutcome {
  db.exec(`CREATE TEMP TABLE moved AS
    SELECT r.cache_id, r.new_key AS key, r.old_key, e.value, e.value_type, e.created_at, e.last_used_at, e.lifespan, e.max_idle, e.expires_at
    FROM temp.key_rewrites r JOIN entries e ON e.cache_id = r.cache_id AND e.key = r.old_key`);
  const rewritten = db.prepare('SELECT count(*) FROM temp.moved').pluck().get() as number;
  db.exec('DELETE FROM entries WHERE (cache_id, key) IN (SELECT cache_id, old_key FROM temp.key_rewrites)');
  const collisions = db.prepare(`SELECT count(*) FROM (
      SELECT m.cache_id, m.key FROM temp.moved m GROUP BY m.cache_id, m.key
      HAVING count(*) > 1 OR EXISTS (SELECT 1 FROM entries e WHERE e.cache_id = m.cache_id AND e.key = m.key))`).pluck().get() as number;
  db.exec(`INSERT INTO entries (${COLUMNS})
    SELECT ${COLUMNS} FROM temp.moved m
    WHERE NOT EXISTS (SELECT 1 FROM temp.moved o WHERE o.cache_id = m.cache_id AND o.key = m.key
      AND (o.created_at > m.created_at OR (o.created_at = m.created_at AND o.old_key > m.old_key)))
    ON CONFLICT (cache_id, key) DO UPDATE SET value = excluded.value, value_type = excluded.value_type,
      created_at = excluded.created_at, last_used_at = excluded.last_used_at, lifespan = excluded.lifespan,
      max_idle = excluded.max_idle, expires_at = excluded.expires_at
    WHERE excluded.created_at > entries.created_at`);
  return { rewritten, collisions };
}
