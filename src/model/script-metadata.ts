import {
  InvalidScriptModeError, NoScriptEngineError, ScriptParametersNotArrayError, ScriptPropertiesNotObjectError, UnknownScriptPropertyError,
} from '../errors';
import { parseMediaType } from './media-type';

export type ScriptMode = 'LOCAL' | 'DISTRIBUTED';

/** What a script's header declares (behavior-notes §14). */
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
/** One `key=value` pair: value double- or single-quoted, a `[…]` array, a `{…}` object or a bare word. */
const KEY_VALUE = /\s*(\w+)\s*=\s*("[^"]*"|'[^']*'|\[[\w,\s]*\]|\{[^}]*\}|[^,=\s"]+)\s*,?/g;

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
  for (const line of script.split(/\r\n|\r|\n/)) {
    const m = METADATA_LINE.exec(line);
    if (!m) break;
    for (const [, rawKey, rawValue] of m[1].matchAll(KEY_VALUE)) apply(meta, rawKey.toLowerCase(), unquote(rawValue));
  }
  return meta;
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
  const names = value.slice(1, -1).split(/\s*,\s*/).map((p) => p.trim()).filter((p) => p !== '');
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
