import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** A statement for the reader thread (src/store/sqlite-reader.ts). */
export interface ReaderRequest {
  id: number;
  sql: string;
  params: unknown[];
}

export type ReaderReply =
  | { id: number; rows: unknown[]; error?: undefined }
  | { id: number; error: string; code: string | undefined };

const STATEMENTS = 256;

// the thread's own connection, read-only: it can never write, whatever SQL it is handed
if (parentPort) {
  const port = parentPort;
  const db = new Database((workerData as { file: string }).file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
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
      reply = { id: m.id, rows: prepare(m.sql).all(...m.params) };
    } catch (err) {
      reply = { id: m.id, error: (err as Error).message, code: (err as { code?: string }).code };
    }
    port.postMessage(reply);
  });
}
