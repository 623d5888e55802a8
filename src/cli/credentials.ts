import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CommandFailure } from './failure';
import { UsageError } from './args';

export interface Credentials {
  user: string;
  password: string;
}

export interface CredentialSources {
  /** -u / -p on the command line */
  user?: string;
  password?: string;
  /** --netrc-file */
  netrcFile?: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Who the CLI logs in as, first found wins: -u/-p, GRID_USER/GRID_PASSWORD, then the netrc file's
 * line for the server's host (--netrc-file, else $NETRC, else ~/.netrc), as curl and git read it.
 * A user without a password takes the password from the environment or the netrc line of that login.
 */
export function resolveCredentials(host: string, s: CredentialSources): Credentials | undefined {
  const user = s.user ?? s.env.GRID_USER;
  const password = s.password ?? (s.user === undefined || s.env.GRID_USER === s.user ? s.env.GRID_PASSWORD : undefined);
  if (user !== undefined && password !== undefined) return { user, password };
  const file = s.netrcFile ?? s.env.NETRC ?? join(homedir(), '.netrc');
  const entry = findNetrcEntry(file, host, user, s.netrcFile !== undefined);
  if (entry) return { user: user ?? entry.user, password: password ?? entry.password };
  if (user !== undefined) throw new UsageError(`-u ${user} needs a password: give -p, GRID_PASSWORD or a line 'machine ${host} login ${user} password …' in ${file}`);
  if (password !== undefined) throw new UsageError('a password needs a user: give -u or GRID_USER');
  return undefined;
}

function findNetrcEntry(file: string, host: string, login: string | undefined, required: boolean): Credentials | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (!required && (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CommandFailure(`cannot read the credentials file ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (err as Error).message}`);
  }
  const entry = parseNetrc(text).find((e) => (e.machine === host || e.machine === undefined) && (login === undefined || e.user === login));
  if (!entry || entry.user === undefined || entry.password === undefined) return undefined;
  // a password file others can read is no secret: refuse it, as ftp and Python's netrc do
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) {
    throw new CommandFailure(`${file} holds a password and other users can read it: run 'chmod 600 ${file}'`);
  }
  return { user: entry.user, password: entry.password };
}

interface NetrcEntry {
  /** undefined for the `default` entry, which matches any host (it comes last in a well-formed file). */
  machine: string | undefined;
  user?: string;
  password?: string;
}

/** The netrc format: `machine H login U password P` tokens (double quotes allowed), `default`, `macdef` skipped. */
export function parseNetrc(text: string): NetrcEntry[] {
  const entries: NetrcEntry[] = [];
  const tokens = tokenize(text);
  let current: NetrcEntry | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.macdefBody) continue;
    switch (t.text) {
      case 'machine': entries.push((current = { machine: tokens[++i]?.text })); break;
      case 'default': entries.push((current = { machine: undefined })); break;
      case 'login': if (current) current.user = tokens[++i]?.text; else i++; break;
      case 'password': if (current) current.password = tokens[++i]?.text; else i++; break;
      case 'account': case 'macdef': i++; break;
      default: break;
    }
  }
  // a `default` entry applies only when no machine matches
  return [...entries.filter((e) => e.machine !== undefined), ...entries.filter((e) => e.machine === undefined)];
}

/** Whitespace-separated tokens; "quoted \"tokens\"" keep spaces; a macdef's body (to the next empty line) is marked. */
function tokenize(text: string): Array<{ text: string; macdefBody?: boolean }> {
  const out: Array<{ text: string; macdefBody?: boolean }> = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '#' && (i === 0 || text[i - 1] === '\n')) { i = lineEnd(text, i); continue; }
    let token = '';
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) token += text[i] === '\\' && i + 1 < text.length ? text[++i] : text[i];
      i++;
    } else {
      for (; i < text.length && !/\s/.test(text[i]); i++) token += text[i];
    }
    out.push({ text: token });
    if (token === 'macdef') {
      const nameEnd = lineEnd(text, i);
      out.push({ text: text.slice(i, nameEnd).trim() });
      const blank = text.indexOf('\n\n', nameEnd);
      i = blank < 0 ? text.length : blank + 2;
      out.push({ text: '', macdefBody: true });
    }
  }
  return out;
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl < 0 ? text.length : nl;
}
