/**
 * How the STDOUT appender writes a line: `json`, as logged (one JSON object per line, `time` in
 * ISO 8601), or `pretty` for a person at a terminal, shaped like the original server's console
 * lines: `2026-11-27 07:02:07.123 WARN  [grid.security] login failed user=bob client=127.0.0.1`.
 * The JSON-FILE appender always writes JSON.
 */
export type LogFormat = 'pretty' | 'json';

export const LOG_FORMATS: readonly LogFormat[] = ['pretty', 'json'];

/** The default: pretty for a person at a terminal, JSON for a program or a file. */
export function defaultLogFormat(stdoutIsTerminal: boolean): LogFormat {
  return stdoutIsTerminal ? 'pretty' : 'json';
}

export function isLogFormat(text: string): text is LogFormat {
  return (LOG_FORMATS as readonly string[]).includes(text);
}

const LEVEL_NAMES: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Written in the line's own words: level, time, logger and message; the rest follows as name=value. */
const OWN_FIELDS = new Set(['level', 'time', 'logger', 'msg', 'err']);

/** One JSON log line (pino's, ending in a newline) as a pretty one. A line that is not JSON passes unchanged. */
export function formatPretty(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = (LEVEL_NAMES[entry.level as number] ?? String(entry.level)).padEnd(5);
  const logger = typeof entry.logger === 'string' && entry.logger ? `[${printable(entry.logger)}] ` : '';
  const fields = Object.entries(entry).filter(([k]) => !OWN_FIELDS.has(k)).map(([k, v]) => ` ${printable(k)}=${formatValue(v)}`).join('');
  const err = entry.err as { stack?: unknown; message?: unknown } | undefined;
  const trace = err ? String(err.stack ?? err.message).split('\n').map((l) => '\n    ' + printable(l)).join('') : '';
  return `${formatTime(entry.time)} ${level} ${logger}${printable(String(entry.msg ?? ''))}${fields}${trace}\n`;
}

/** Control characters (a client's user name may hold some) shown as escapes, never sent to the terminal. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Local time, to the millisecond: `2026-11-27 07:02:07.123`. */
function formatTime(time: unknown): string {
  const d = new Date(typeof time === 'string' || typeof time === 'number' ? time : Date.now());
  if (Number.isNaN(d.getTime())) return String(time);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** Plain when it reads unambiguously (`a`, `12`, `true`), JSON otherwise (`"two words"`, `[1,2]`). */
function formatValue(v: unknown): string {
  if (typeof v === 'string' && /^[\u0021-\u007e\u00a0-\uffff]+$/.test(v) && !/["=]/.test(v)) return v;
  return printable(JSON.stringify(v) ?? String(v));
}
