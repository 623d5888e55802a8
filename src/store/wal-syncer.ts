import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import type { Syncer } from './group-commit';

/**
 * fdatasync of the SQLite WAL through a descriptor of its own: a sync flushes the file, whichever
 * descriptor wrote it, so it covers every transaction the connection wrote before it. The WAL
 * keeps its inode while the store's connection is open (SQLite deletes it only when the last
 * connection closes, and only rewinds or truncates it otherwise), so the descriptor stays valid.
 */
export class WalSyncer implements Syncer {
  private fd: number | undefined;
  private running: Promise<void> | undefined;
  private closing = false;

  constructor(private readonly path: string) {}

  sync(): Promise<void> {
    const fd = this.descriptor();
    const running = new Promise<void>((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));
    this.running = running;
    void running.catch(() => undefined).finally(() => {
      if (this.running === running) this.running = undefined;
      if (this.closing && !this.running) this.release();
    });
    return running;
  }

  syncNow(): void {
    fdatasyncSync(this.descriptor());
  }

  /** Closes the descriptor, once a sync still running on the thread pool has returned. */
  close(): void {
    this.closing = true;
    if (!this.running) this.release();
  }

  private descriptor(): number {
    this.fd ??= openSync(this.path, 'r');
    return this.fd;
  }

  private release(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
