import type { Enum, Namespace, Root, Type, ReflectionObject } from 'protobufjs';
import type { ProtobufTypes } from './protostream-json';

// loaded on first use: only servers with schemas need it, and start-up time is module compilation
let pbModule: typeof import('protobufjs') | undefined;
const pb = (): typeof import('protobufjs') => (pbModule ??= require('protobufjs') as typeof import('protobufjs'));

/**
 * Validation of a set of `.proto` files as the original's schema registry does it
 * (docs/reference/management-plane.md#schemas): each file is checked alone (syntax), then its imports against the other files, then its
 * types; a file with an error stays registered with that error. Parsing uses protobufjs.
 */
export interface ProtoFile { name: string; content: string }
export interface ProtoCheck { errors: Map<string, string>; root: Root; typeIds: Map<string, number> }

const OPTIONS = { keepCase: true, alternateCommentMode: true };

interface Parsed { imports: string[]; pkg: string | undefined; root: Root }

export function checkProtoFiles(files: ProtoFile[]): ProtoCheck {
  const errors = new Map<string, string>();
  const parsed = new Map<string, Parsed>();
  for (const f of files) {
    try {
      const r = pb().parse(f.content, new (pb().Root)(), OPTIONS);
      parsed.set(f.name, { imports: [...(r.imports ?? []), ...(r.weakImports ?? [])], pkg: r.package, root: r.root });
    } catch (err) {
      errors.set(f.name, syntaxCause(f, (err as Error).message));
    }
  }
  const byName = new Map(files.map((f) => [f.name, f]));
  const closure = (name: string, seen = new Set<string>()): string[] => {
    if (seen.has(name)) return [];
    seen.add(name);
    return [...(parsed.get(name)?.imports ?? []).flatMap((i) => closure(i, seen)), name];
  };
  for (const f of files) {
    if (errors.has(f.name)) continue;
    const missing = closure(f.name).find((n) => !byName.has(n) || errors.has(n));
    if (missing !== undefined) {
      errors.set(f.name, `Import '${missing}' not found in ${f.name} at ${locate(f.content, missing)}`);
      continue;
    }
    const root = new (pb().Root)();
    try {
      for (const n of closure(f.name)) pb().parse(byName.get(n)!.content, root, OPTIONS);
      root.resolveAll();
    } catch (err) {
      errors.set(f.name, resolveCause(f, (err as Error).message));
    }
  }
  let root = new (pb().Root)();
  const typeIds = new Map<string, number>();
  const merged: ProtoFile[] = [];
  for (const f of files) {
    if (errors.has(f.name)) continue;
    // a file declaring what another one did is refused before it is merged: protobufjs would stop
    // halfway and leave the types declared before the clash in the tree, unresolvable
    const clash = firstClash(root, parsed.get(f.name)!.root);
    if (clash !== undefined) {
      errors.set(f.name, `${f.name}: ${clash}`);
      continue;
    }
    try {
      pb().parse(commentsOnOwnLine(f.content), root, OPTIONS);
      for (const [type, id] of declaredTypeIds(f.content, parsed.get(f.name)?.pkg)) typeIds.set(type, id);
      merged.push(f);
    } catch (err) {
      errors.set(f.name, `${f.name}: ${(err as Error).message}`);
      // rare (what firstClash does not foresee): start again without what the file left behind
      root = new (pb().Root)();
      for (const m of merged) pb().parse(commentsOnOwnLine(m.content), root, OPTIONS);
    }
  }
  try {
    root.resolveAll();
  } catch {
    // a clash between valid files: types stay reachable where they resolved
  }
  return { errors, root, typeIds };
}

/**
 * What `file` declares that `into` already holds, as protobufjs words it (`duplicate name 'A' in
 * Namespace .x`), or undefined. Packages merge; a message, enum or service never does.
 */
function firstClash(into: Namespace, file: Namespace): string | undefined {
  for (const object of file.nestedArray) {
    const existing = into.get(object.name);
    if (!existing) continue;
    const merges = existing instanceof pb().Namespace && object instanceof pb().Namespace
      && !(existing instanceof pb().Type || existing instanceof pb().Service);
    if (!merges) return `duplicate name '${object.name}' in ${into.toString()}`;
    const inner = firstClash(existing as Namespace, object as Namespace);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** `illegal token 'x' (line 3)` → `Syntax error in f.proto at 3:7: unexpected label: x` (protostream's wording). */
function syntaxCause(f: ProtoFile, message: string): string {
  const token = /'([^']*)'/.exec(message)?.[1] ?? '';
  const line = Number(/line (\d+)/.exec(message)?.[1] ?? 1);
  const text = f.content.split('\n')[line - 1] ?? '';
  const at = token ? text.indexOf(token) : -1;
  const column = at < 0 ? 1 : at + 1;
  const first = text.trimStart().startsWith(token);
  return `Syntax error in ${f.name} at ${line}:${column}: ${first ? 'unexpected label' : 'unexpected token'}: ${token}`;
}

/** `no such Type or Enum 'Foo' in Type .A` → where `Foo` is used in the file. */
function resolveCause(f: ProtoFile, message: string): string {
  const type = /'([^']*)'/.exec(message)?.[1] ?? '';
  return `Failed to resolve type in ${f.name} at ${locate(f.content, type)}: Type not found : ${type}`;
}

function locate(content: string, token: string): string {
  const lines = content.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const at = lines[i].indexOf(token);
    if (at >= 0 && token !== '') return `${i + 1}:${at + 1}`;
  }
  return '1:1';
}

/**
 * Leading comments carry the indexing annotations (docs/reference/query.md#annotations), but protobufjs attaches a
 * comment only from the lines before a declaration and prefers a trailing comment on the same
 * line. So every block comment gets a line of its own (`/* @Indexed *∕ message X {` and
 * `/* @Basic *∕ optional string a = 1;` keep their annotations) and trailing `//` comments are
 * dropped. Strings are left alone; only line breaks and comments change.
 */
export function commentsOnOwnLine(content: string): string {
  let out = '';
  let code = false; // the current output line has code on it
  let i = 0;
  while (i < content.length) {
    const c = content[i];
    if (c === '\n') {
      code = false;
      out += c;
      i++;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < content.length && content[j] !== c && content[j] !== '\n') j += content[j] === '\\' ? 2 : 1;
      out += content.slice(i, j + 1);
      code = true;
      i = j + 1;
    } else if (content.startsWith('//', i)) {
      const end = content.indexOf('\n', i);
      const j = end < 0 ? content.length : end;
      if (!code) out += content.slice(i, j);
      i = j;
    } else if (content.startsWith('/*', i)) {
      const end = content.indexOf('*/', i + 2);
      const j = end < 0 ? content.length : end + 2;
      out += (code ? '\n' : '') + content.slice(i, j);
      i = j;
      code = false;
      if (/^[ \t]*[^\s/]/.test(content.slice(i, i + 64))) out += '\n';
    } else {
      if (c !== ' ' && c !== '\t' && c !== '\r') code = true;
      out += c;
      i++;
    }
  }
  return out;
}

/** `/** @TypeId(1001) *∕ message X` declares the numeric id a WrappedMessage may carry instead of the name. */
function declaredTypeIds(content: string, pkg: string | undefined): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  const re = /@TypeId\((\d+)\)[^]*?\b(?:message|enum)\s+(\w+)/g;
  for (let m = re.exec(content); m; m = re.exec(content)) out.push([pkg ? `${pkg}.${m[2]}` : m[2], Number(m[1])]);
  return out;
}

/** Every message and enum full name of a root, nested ones included. */
export function typeNames(root: Root): string[] {
  const out: string[] = [];
  const walk = (ns: ReflectionObject): void => {
    if (ns instanceof pb().Type || ns instanceof pb().Enum) out.push(ns.fullName.slice(1));
    if (ns instanceof pb().Namespace) for (const child of ns.nestedArray) walk(child);
  };
  walk(root);
  return out.sort();
}

export function findType(root: Root, name: string): Type | Enum | undefined {
  try {
    const t = root.lookup(name.startsWith('.') ? name : `.${name}`);
    return t instanceof pb().Type || t instanceof pb().Enum ? t : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The type registry of a set of files, as the schema service makes it from the same check: what
 * another thread needs to read and write protostream as the server does (off-loop.jobs.ts).
 */
export function typesOfFiles(files: ProtoFile[]): ProtobufTypes {
  const { root, typeIds } = checkProtoFiles(files);
  const namesById = new Map([...typeIds].map(([name, id]) => [id, name]));
  return { find: (name) => findType(root, name), typeIdOf: (name) => typeIds.get(name), nameOfTypeId: (id) => namesById.get(id) };
}
