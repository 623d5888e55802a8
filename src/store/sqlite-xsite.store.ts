import type { Database, Statement } from 'better-sqlite3';
import type { XSiteRecord } from './records';

interface Row { cache: string; site: string; status: string; mode: string; after_failures: number; min_wait: number }

/** Cross-site backup location state. */
export class SqliteXSiteStore {
  private readonly all: Statement;
  private readonly upsertStmt: Statement;

  constructor(db: Database) {
    this.all = db.prepare('SELECT cache, site, status, mode, after_failures, min_wait FROM xsite_state');
    this.upsertStmt = db.prepare('INSERT OR REPLACE INTO xsite_state (cache, site, status, mode, after_failures, min_wait) VALUES (?, ?, ?, ?, ?, ?)');
  }

  list(): XSiteRecord[] {
    return (this.all.all() as Row[]).map((r) => ({
      cache: r.cache, site: r.site, status: r.status as XSiteRecord['status'], mode: r.mode as XSiteRecord['mode'],
      afterFailures: r.after_failures, minWait: r.min_wait,
    }));
  }

  upsert(r: XSiteRecord): void {
    this.upsertStmt.run(r.cache, r.site, r.status, r.mode, r.afterFailures, r.minWait);
  }
}
