import {
  InvalidScriptModeError, NoScriptEngineError, ScriptParametersNotArrayError, ScriptPropertiesNotObjectError, UnknownScriptPropertyError,
} from '../errors';
import { parseMediaType } from './media/media-type';

export type ScriptMode = 'LOCAL' | 'DISTRIBUTED';

/** What a script's header declares (docs/reference/management-plane.md#script-header). */
export interface ScriptMetadata {
  name: string;
  extension: string;
  language: string | undefined;
  mode: ScriptMode;
  /** Declared parameter names, in declaration order, without duplicates. */
  parameters: string[];
  /** The role a caller must hold to execute the script (with EXEC). */
  role: string | undefined;
  dataType: string;
  properties: Record<string, string>;
}

const DEFAULT_EXTENSION = 'js';
const DEFAULT_DATA_TYPE = 'text/plain; charset=utf-8';
/** A metadata line: `//`, `#` or `;;`, optional blanks, then at least one character. */
const METADATA_LINE = /^(?:#|\/\/|;;)\s*(.+)$/;

/** Names under which the original's JavaScript engine (Nashorn) is found, and its extension. */
const JS_LANGUAGES = new Set(['nashorn', 'Nashorn', 'js', 'JS', 'JavaScript', 'javascript', 'ECMAScript', 'ecmascript']);
const JS_EXTENSIONS = new Set(['js']);

/**
 * Reads the leading metadata lines of a script. Parsing stops at the first line that is not a
 * metadata line; text without `key=value` pairs on a metadata line is ignored, as the original does.
 */
export function parseScriptMetadata(name: string, script: string): ScriptMetadata {
  const dot = name.lastIndexOf('.') + 1;
  const meta: ScriptMetadata = {
    name,
    extension: dot === 0 || dot === name.length ? DEFAULT_EXTENSION : name.slice(dot),
    language: undefined,
    mode: 'LOCAL',
    parameters: [],
    role: undefined,
    dataType: DEFAULT_DATA_TYPE,
    properties: {},
  };
  for (const line of lines(script)) {
    const m = METADATA_LINE.exec(line);
    if (!m) break;
    for (const [rawKey, rawValue] of metadataPairs(m[1])) apply(meta, rawKey.toLowerCase(), unquote(rawValue));
  }
  return meta;
}

/** The lines of a text (CRLF, CR or LF), one at a time: the header is read, not the whole script. */
function* lines(text: string): Generator<string> {
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '\n' && c !== '\r') continue;
    yield text.slice(start, i);
    if (c === '\r' && text[i + 1] === '\n') i++;
    start = i + 1;
  }
  yield text.slice(start);
}

/** `\s` of a regular expression, by char code (ASCII first: the common case). */
function isSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return /\s/.test(String.fromCharCode(c));
}

/** `\w`: ASCII letters, digits and `_`. */
function isWord(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const COMMA = 0x2c;
const EQUALS = 0x3d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;

/**
 * The `key=value` pairs of a metadata line, in order: a word, `=`, and a value double- or
 * single-quoted, a `[…]` array of words, a `{…}` object or a bare word — what the regular expression
 * `\s*(\w+)\s*=\s*("[^"]*"|'[^']*'|\[[\w,\s]*\]|\{[^}]*\}|[^,=\s"]+)\s*,?` finds with
 * `matchAll`, in linear time: that expression, tried again at every character of a long word, took
 * 0.9 s for a 40 KB line (and hours for a 10 MB one). A try inside a word or a run of blanks ends as
 * the try at its start does, so the scan goes on after the word or run; each closing quote or brace
 * is looked for once.
 */
export function* metadataPairs(line: string): Generator<[string, string]> {
  const closing = new NextIndex(line);
  let at = 0;
  while (at < line.length) {
    const c = line.charCodeAt(at);
    if (isSpace(c)) { at = skip(line, at, isSpace); continue; }
    if (!isWord(c)) { at++; continue; }
    const keyEnd = skip(line, at, isWord);
    const value = valueAfterKey(line, keyEnd, closing);
    if (!value) { at = keyEnd; continue; }
    yield [line.slice(at, keyEnd), line.slice(value.start, value.end)];
    at = skip(line, value.end, isSpace);
    if (line.charCodeAt(at) === COMMA) at++;
  }
}

/** `\s*=\s*` and a value after a key ending at `at`, as [start, end) of the line; undefined when none. */
function valueAfterKey(line: string, at: number, closing: NextIndex): { start: number; end: number } | undefined {
  let i = skip(line, at, isSpace);
  if (line.charCodeAt(i) !== EQUALS) return undefined;
  i = skip(line, i + 1, isSpace);
  const c = line.charCodeAt(i);
  if (c === QUOTE || c === APOSTROPHE || c === OPEN_BRACE) {
    const close = closing.after(c === OPEN_BRACE ? '}' : line[i], i + 1);
    if (close >= 0) return { start: i, end: close + 1 };
  } else if (c === OPEN_BRACKET) {
    const end = skip(line, i + 1, (ch) => isWord(ch) || ch === COMMA || isSpace(ch));
    if (line.charCodeAt(end) === CLOSE_BRACKET) return { start: i, end: end + 1 };
  }
  const end = skip(line, i, (ch) => ch !== COMMA && ch !== EQUALS && ch !== QUOTE && !isSpace(ch));
  return end > i ? { start: i, end } : undefined;
}

function skip(line: string, at: number, test: (c: number) => boolean): number {
  while (at < line.length && test(line.charCodeAt(at))) at++;
  return at;
}

/** `indexOf(char, from)` for ascending `from`, remembered per character: each is looked for once per stretch. */
class NextIndex {
  private readonly found = new Map<string, number>();

  constructor(private readonly text: string) {}

  after(char: string, from: number): number {
    const known = this.found.get(char);
    if (known !== undefined && (known === -1 || known >= from)) return known;
    const at = this.text.indexOf(char, from);
    this.found.set(char, at);
    return at;
  }
}

function apply(meta: ScriptMetadata, key: string, value: string): void {
  switch (key) {
    case 'name': meta.name = value; return;
    case 'extension': meta.extension = value; return;
    case 'language': meta.language = value; return;
    case 'mode': meta.mode = toMode(value); return;
    case 'parameters': meta.parameters = toArray(value); return;
    case 'role': meta.role = value; return;
    case 'datatype': meta.dataType = parseMediaType(value).raw; return;
    case 'properties': meta.properties = toObject(value); return;
    default: throw new UnknownScriptPropertyError(key);
  }
}

/** True when grid can run the script: JavaScript by language name, or by extension when no language is given. */
export function isJavaScript(meta: ScriptMetadata): boolean {
  return meta.language !== undefined ? JS_LANGUAGES.has(meta.language) : JS_EXTENSIONS.has(meta.extension);
}

/** Refuses scripts in any language but JavaScript (400 ISPN027507), as the original does without an engine. */
export function requireJavaScript(taskName: string, meta: ScriptMetadata): void {
  if (!isJavaScript(meta)) throw new NoScriptEngineError(taskName);
}

function unquote(s: string): string {
  return (s.startsWith('"') || s.startsWith("'")) ? s.slice(1, -1) : s;
}

function toMode(value: string): ScriptMode {
  const mode = value.toUpperCase();
  if (mode !== 'LOCAL' && mode !== 'DISTRIBUTED') throw new InvalidScriptModeError(value);
  return mode;
}

function toArray(value: string): string[] {
  if (!value.startsWith('[')) throw new ScriptParametersNotArrayError();
  const names = value.slice(1, -1).split(',').map((p) => p.trim()).filter((p) => p !== '');
  return [...new Set(names)];
}

function toObject(value: string): Record<string, string> {
  if (!value.startsWith('{')) throw new ScriptPropertiesNotObjectError();
  const out: Record<string, string> = {};
  for (const pair of value.slice(1, -1).split(',')) {
    if (pair.trim() === '') continue;
    const colon = pair.indexOf(':');
    if (colon < 0) throw new ScriptPropertiesNotObjectError();
    out[unquote(pair.slice(0, colon).trim())] = unquote(pair.slice(colon + 1).trim());
  }
  return out;
}
