import { closeSync, existsSync, fstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files';

export interface LogFileOptions {
  dir: string;
  name: string;
  /** The file is rotated when a line would take it past this size. */
  maxBytes: number;
  /** Rotated files kept: `NAME.1` (the newest) … `NAME.<keep>`. */
  keep: number;
}

/**
 * The JSON-FILE appender's file. Each line is written with one `write` call as it is logged, so
 * nothing waits in memory: a `kill -9` loses at most the line being written (a write to a file in
 * the page cache takes microseconds). Past `maxBytes` the file becomes `NAME.1` (`NAME.1` becomes
 * `NAME.2`, …, the oldest is dropped) and a new one is started; renamed files keep their mode.
 * A failing file (disk full, removed directory) is reported once on stderr and written no more.
 */
export class LogFile {
  private fd: number | undefined;
  private size = 0;
  /** Closed, or failed. */
  private stopped = false;
  private readonly path: string;

  /** Opens (creates) the file at once: it is there from the start, as the data directory's layout says. */
  constructor(private readonly opts: LogFileOptions) {
    this.path = join(opts.dir, opts.name);
    this.guarded(() => this.open());
  }

  write(line: string): void {
    this.guarded(() => {
      const bytes = Buffer.from(line, 'utf8');
      if (this.fd === undefined) this.open();
      else if (this.size > 0 && this.size + bytes.length > this.opts.maxBytes) this.rotate();
      for (let at = 0; at < bytes.length;) at += writeSync(this.fd!, bytes, at);
      this.size += bytes.length;
    });
  }

  /** At shutdown: later lines are not written. */
  close(): void {
    this.closeFile();
    this.stopped = true;
  }

  private guarded(step: () => void): void {
    if (this.stopped) return;
    try {
      step();
    } catch (err) {
      this.stopped = true;
      process.stderr.write(`grid: the JSON-FILE log appender failed and stops writing: ${(err as Error).message}\n`);
    }
  }

  private open(): void {
    this.fd = openSync(this.path, 'a', PRIVATE_FILE_MODE);
    this.size = fstatSync(this.fd).size;
  }

  private closeFile(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private rotate(): void {
    this.closeFile();
    const numbered = (n: number) => `${this.path}.${n}`;
    rmSync(numbered(this.opts.keep), { force: true });
    for (let n = this.opts.keep - 1; n >= 1; n--) if (existsSync(numbered(n))) renameSync(numbered(n), numbered(n + 1));
    renameSync(this.path, numbered(1));
    this.open();
  }
}
