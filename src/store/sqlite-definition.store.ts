import type { Database, Statement } from 'better-sqlite3';
import type { CacheRecord, TemplateRecord } from './records';

interface CacheRow { id: number; name: string; config: string; created_at: number }
interface TemplateRow { name: string; config: string; created_at: number }

/** Persisted cache and template definitions. */
export class SqliteDefinitionStore {
  private readonly allCaches: Statement;
  private readonly allTemplates: Statement;
  private readonly maxId: Statement;
  private readonly insertCacheStmt: Statement;
  private readonly updateCacheStmt: Statement;
  private readonly deleteCacheStmt: Statement;
  private readonly deleteCacheEntriesStmt: Statement;
  private readonly upsertTemplateStmt: Statement;
  private readonly deleteTemplateStmt: Statement;

  constructor(db: Database) {
    this.allCaches = db.prepare('SELECT id, name, config, created_at FROM caches ORDER BY name');
    this.allTemplates = db.prepare('SELECT name, config, created_at FROM templates ORDER BY name');
    this.maxId = db.prepare('SELECT max(id) AS id FROM (SELECT max(id) AS id FROM caches UNION ALL SELECT max(cache_id) FROM entries)');
    this.insertCacheStmt = db.prepare('INSERT INTO caches (id, name, config, created_at) VALUES (?, ?, ?, ?)');
    this.updateCacheStmt = db.prepare('UPDATE caches SET config = ? WHERE name = ?');
    this.deleteCacheStmt = db.prepare('DELETE FROM caches WHERE id = ?');
    this.deleteCacheEntriesStmt = db.prepare('DELETE FROM entries WHERE cache_id = ?');
    this.upsertTemplateStmt = db.prepare('INSERT OR REPLACE INTO templates (name, config, created_at) VALUES (?, ?, ?)');
    this.deleteTemplateStmt = db.prepare('DELETE FROM templates WHERE name = ?');
  }

  listCaches(): CacheRecord[] {
    return (this.allCaches.all() as CacheRow[]).map((r) => ({ id: r.id, name: r.name, config: r.config, createdAt: r.created_at }));
  }

  listTemplates(): TemplateRecord[] {
    return (this.allTemplates.all() as TemplateRow[]).map((r) => ({ name: r.name, config: r.config, createdAt: r.created_at }));
  }

  /** Highest cache id ever used (entries of a removed cache may still be on disk until purged). */
  maxCacheId(): number {
    return (this.maxId.get() as { id: number | null }).id ?? 0;
  }

  insertCache(r: CacheRecord): void {
    this.insertCacheStmt.run(r.id, r.name, r.config, r.createdAt);
  }

  updateCacheConfig(name: string, config: string): void {
    this.updateCacheStmt.run(config, name);
  }

  /** Removes the definition and every entry it owned. */
  deleteCache(id: number): void {
    this.deleteCacheEntriesStmt.run(id);
    this.deleteCacheStmt.run(id);
  }

  upsertTemplate(r: TemplateRecord): void {
    this.upsertTemplateStmt.run(r.name, r.config, r.createdAt);
  }

  deleteTemplate(name: string): boolean {
    return this.deleteTemplateStmt.run(name).changes > 0;
  }
}
