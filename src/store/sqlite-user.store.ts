import type { Database, Statement } from 'better-sqlite3';
import type { DigestUpdate, UserRecord } from './records';

interface UserRow {
  name: string; password_hash: string; digest_md5: string; digest_sha256: string; roles: string;
  created_at: number; updated_at: number;
}

function toUser(r: UserRow): UserRecord {
  return {
    name: r.name, passwordHash: r.password_hash, digestMd5: r.digest_md5, digestSha256: r.digest_sha256,
    roles: r.roles ? r.roles.split(',') : [], createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

/**
 * Users of the built-in realm. Written directly (not through the group committer): the `grid user`
 * commands change this table from another process while a server runs.
 */
export class SqliteUserStore {
  private readonly byName: Statement;
  private readonly all: Statement;
  private readonly upsertStmt: Statement;
  private readonly deleteStmt: Statement;
  private readonly countStmt: Statement;
  private readonly digestsStmt: Statement;
  private readonly replaceAll: (rows: DigestUpdate[]) => void;

  constructor(db: Database) {
    this.byName = db.prepare('SELECT * FROM users WHERE name = ?');
    this.all = db.prepare('SELECT * FROM users ORDER BY name');
    this.upsertStmt = db.prepare(`INSERT INTO users (name, password_hash, digest_md5, digest_sha256, roles, created_at, updated_at)
      VALUES (@name, @passwordHash, @digestMd5, @digestSha256, @roles, @createdAt, @updatedAt)
      ON CONFLICT (name) DO UPDATE SET password_hash = excluded.password_hash, digest_md5 = excluded.digest_md5,
        digest_sha256 = excluded.digest_sha256, roles = excluded.roles, updated_at = excluded.updated_at`);
    this.deleteStmt = db.prepare('DELETE FROM users WHERE name = ?');
    this.countStmt = db.prepare('SELECT count(*) AS n FROM users');
    this.digestsStmt = db.prepare('UPDATE users SET digest_md5 = @digestMd5, digest_sha256 = @digestSha256 WHERE name = @name');
    this.replaceAll = db.transaction((rows: DigestUpdate[]) => { for (const r of rows) this.digestsStmt.run(r); });
  }

  find(name: string): UserRecord | undefined {
    const row = this.byName.get(name) as UserRow | undefined;
    return row && toUser(row);
  }

  list(): UserRecord[] {
    return (this.all.all() as UserRow[]).map(toUser);
  }

  count(): number {
    return (this.countStmt.get() as { n: number }).n;
  }

  upsert(u: UserRecord): void {
    this.upsertStmt.run({ ...u, roles: u.roles.join(',') });
  }

  /** Rewrites the stored Digest values of several users in one transaction (updated_at unchanged). */
  replaceDigests(rows: DigestUpdate[]): void {
    this.replaceAll(rows);
  }

  delete(name: string): boolean {
    return this.deleteStmt.run(name).changes > 0;
  }
}
