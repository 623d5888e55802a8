/**
 * A progress line for long commands, on stderr so stdout stays for results: rewritten in place on a
 * terminal; elsewhere (a log, a pipe) a plain line at most every few seconds.
 */
export class Progress {
  // off a terminal the first line comes after 5 s: a quick command writes nothing to stderr
  private lastLine = Date.now();
  private readonly tty = process.stderr.isTTY === true;

  constructor(private readonly label: string) {}

  tick(text: string): void {
    if (this.tty) {
      process.stderr.write(`\r${this.label}: ${text}\x1b[K`);
      return;
    }
    if (Date.now() - this.lastLine < 5000) return;
    this.lastLine = Date.now();
    process.stderr.write(`${this.label}: ${text}\n`);
  }

  /** Clears the progress line and prints the outcome on stdout. */
  done(text: string): void {
    if (this.tty) process.stderr.write('\r\x1b[K');
    process.stdout.write(`${this.label}: ${text}\n`);
  }

  /** Clears the progress line before a failure is printed. */
  clear(): void {
    if (this.tty) process.stderr.write('\r\x1b[K');
  }
}

/** `12,345,678 bytes`, or `3.4 MB of 10.0 MB (34%)` when the total is known. */
export function formatBytes(bytes: number, total?: number): string {
  if (total === undefined || total <= 0) return `${bytes.toLocaleString('en-US')} bytes`;
  return `${human(bytes)} of ${human(total)} (${Math.floor((bytes / total) * 100)}%)`;
}

function human(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}
