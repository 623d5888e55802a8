import type { Writable } from 'node:stream';

/** What may wait in memory for a reader of standard output that does not keep up. */
export const STDOUT_BACKLOG_BYTES = 1 << 20;

/**
 * Standard output as the server writes it: each text handed over at once (no block buffering:
 * a log line is seen when it happens), and never a reason to stop serving or to hang. A closed
 * reader (`grid start | head -3`: EPIPE) or a failing one ends what is written there; the server
 * goes on, and SIGINT/SIGTERM still stop it. A pipe's reader that stops reading holds at most
 * `STDOUT_BACKLOG_BYTES` (node writes to a pipe without blocking and keeps what the pipe cannot
 * take yet); further texts are dropped and counted, and `onCaughtUp` hears the count when the
 * reader has taken the rest.
 */
export class StandardOutput {
  /** Called with the number of texts dropped, once the reader took everything that waited. */
  onCaughtUp: (dropped: number) => void = () => undefined;
  private gone = false;
  private dropped = 0;

  constructor(private readonly out: Writable) {
    out.on('error', () => { this.gone = true; });
    out.on('drain', () => {
      if (this.dropped === 0) return;
      const n = this.dropped;
      this.dropped = 0;
      this.onCaughtUp(n);
    });
  }

  write(text: string): void {
    if (this.gone || this.out.destroyed) return;
    if (this.out.writableLength > STDOUT_BACKLOG_BYTES) {
      this.dropped++;
      return;
    }
    this.out.write(text);
  }
}

let processStdout: StandardOutput | undefined;

/** The process's standard output, wrapped once. */
export function standardOutput(): StandardOutput {
  return (processStdout ??= new StandardOutput(process.stdout));
}
