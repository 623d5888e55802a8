import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { sharedNow } from '../util/clock';
import { deadlinePassed, defineInTime } from './sqlite-deadline';
import { registerLike } from './sqlite-like';

/** A statement for the reader thread (src/store/sqlite-reader.ts). */
export interface ReaderRequest {
  id: number;
  sql: string;
  params: unknown[];
  /** Epoch ms (util/clock.ts `sharedNow`) by which the statement must be done; it is not started after it. */
  deadline?: number;
}

/**
 * Rows as SQLite gave them, except that blob values (keys) are `{ at, length }` into `blobs`: one
 * buffer crosses threads instead of one per row, which the receiving heap would account, and
 * collect, one by one.
 */
export type ReaderReply =
  | { id: number; rows: Array<Record<string, unknown>>; blobs: Buffer; error?: undefined }
  | { id: number; error: string; code: string | undefined };

function packBlobs(rows: Array<Record<string, unknown>>): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (const row of rows) {
    for (const k of Object.keys(row)) {
      const v = row[k];
      if (!Buffer.isBuffer(v)) continue;
      parts.push(v);
      row[k] = { at, length: v.length };
      at += v.length;
    }
  }
  return Buffer.concat(parts, at);
}

const STATEMENTS = 256;

// the thread's own connection, read-only: it can never write, whatever SQL it is handed
if (parentPort) {
  const port = parentPort;
  const db = new Database((workerData as { file: string }).file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  let deadline = Infinity;
  defineInTime(db, () => deadline);
  registerLike(db); // the index statements' LIKE (src/store/sqlite-index-sql.ts)
  const statements = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    let s = statements.get(sql);
    if (!s) {
      if (statements.size >= STATEMENTS) statements.clear();
      statements.set(sql, (s = db.prepare(sql)));
    }
    return s;
  };
  port.on('message', (m: ReaderRequest) => {
    let reply: ReaderReply;
    try {
      deadline = m.deadline ?? Infinity;
      if (sharedNow() >= deadline) throw deadlinePassed();
      const rows = prepare(m.sql).all(...m.params) as Array<Record<string, unknown>>;
      reply = { id: m.id, rows, blobs: packBlobs(rows) };
    } catch (err) {
      reply = { id: m.id, error: (err as Error).message, code: (err as { code?: string }).code };
    }
    port.postMessage(reply);
  });
}
