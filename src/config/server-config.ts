import { readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, extname, join, resolve } from 'node:path';
import { hostname } from 'node:os';
import { ALLOWED_HOSTS_PROPERTY, isLoopbackHost, readAllowedHosts } from './allowed-hosts';
import { ConfigError } from './server-config-error';
import { type EngineConfig, type EngineOverrides, readEngineSetting, resolveEngine } from './engine-config';
import { type CorsRuleConfig, readCorsRules } from './cors-rules';
import { type LoggerConfig, parseLoggers } from './logger-config';
import { parseTenants, type TenantConfig } from './tenants';
import { readTlsSetting, resolveTls, type TlsConfig, type TlsOverrides, withoutTls } from './tls-config';
import { DEFAULT_LIMITS, LimitError, type Limits, parseLimits } from './limits';
import { DECLARATION_KEYS, type DeclarationSource, fileFormatOf, INFINISPAN_ROOT, parseUpdateDeclared, type UpdateDeclared } from './declaration-sources';

export type Durability = 'power' | 'process';
/** How a user may prove who they are (`auth-mechanisms`). */
export type AuthMechanism = 'basic' | 'digest';

/** Everything the server needs to start, validated once. */
export interface ServerConfig {
  dataDir: string;
  host: string;
  port: number;
  durability: Durability;
  authEnabled: boolean;
  /** HTTP mechanisms offered; without `digest` no Digest HA1 is stored (docs/security.md). */
  authMechanisms: AuthMechanism[];
  /** Accept Digest responses without qop (RFC 2069); refused by default. */
  digestWithoutQop: boolean;
  /** Request bodies above this many bytes get 413. */
  maxContentLength: number;
  logLevel: string;
  /** Loggers set at start (the access log among them); changes made through the API apply over them. */
  loggers: LoggerConfig[];
  /** This node's name (`node-name`); undefined: the default, which main.ts settles once the port is known (docs/scale-out.md, "Membership"). */
  nodeName?: string;
  /** `cluster-name`: the `cluster_name` the API reports; every live node of one grid has the same (docs/scale-out.md, "Membership"). */
  clusterName: string;
  /** How often the expiration reaper runs (ms). */
  expirationInterval: number;
  /** Script tasks: wall-clock limit of one execution (ms), host calls included. */
  taskTimeout: number;
  /** Script tasks: memory of each execution's isolate (bytes, whole MiB used). */
  taskMemoryLimit: number;
  /** Script tasks: `cache`/`cacheManager` calls per execution. */
  taskMaxHostCalls: number;
  /** Script tasks: UTF-8 bytes of keys and values written per execution. */
  taskMaxWrite: number;
  /** Script tasks running at once; more wait. */
  taskConcurrency: number;
  /** Directories besides the data dir where backups may be written and restores read (absolute). */
  backupRoots: string[];
  /** A backup or restore still running after this many ms fails. */
  backupTimeout: number;
  /** `-Dname=value` properties. */
  properties: Record<string, string>;
  /** A built web console served at /console/ (its real path, checked at start); none when unset. */
  consoleDir?: string;
  /** Configured CORS rules, in order (after the `cors-allow` property and the localhost rules). */
  corsRules: CorsRuleConfig[];
  /** Host names the Host check accepts beside localhost and IP addresses (`*`: no check). */
  allowedHosts: string[];
  /** `--allow-remote-no-auth`: lets `--no-auth` listen on a non-loopback address. */
  allowRemoteNoAuth: boolean;
  /** Containers beside the default one, each reached at `/rest/<name>/…` (docs/configuration.md, Tenants). */
  tenants: TenantConfig[];
  /** User created or updated at start (APP_USER / APP_PASS / APP_ROLE). */
  appUser?: { name: string; password: string; roles: string[] };
  /** The TLS listener next to the plain port; undefined = none. */
  tls?: TlsConfig;
  /** Caps on sizes, counts, connections and time-outs (src/config/limits.ts). */
  limits: Limits;
  /** Files declaring caches, templates, counters, schemas or roles, in `--config` order (docs/configuration.md, Declared resources). */
  declarations: DeclarationSource[];
  /** `mutable`: a declared resource differing from the data dir in what may change on it is updated at start. */
  updateDeclared: UpdateDeclared;
  /** The embedded SQLite store (default) or a Redis Cluster (docs/scale-out.md). */
  engine: EngineConfig;
}

/** What the command line may set; undefined = not given. */
export type ConfigOverrides = Partial<Omit<ServerConfig, 'properties' | 'appUser' | 'tls' | 'limits' | 'engine'>>
  & { properties?: Record<string, string>; limits?: Partial<Limits>; engine?: EngineOverrides } & TlsOverrides;

export { ConfigError };

const DEFAULTS: Omit<ServerConfig, 'properties' | 'limits' | 'engine'> = {
  dataDir: './data', host: '127.0.0.1', port: 11222, durability: 'power', authEnabled: true,
  authMechanisms: ['basic', 'digest'], digestWithoutQop: false, maxContentLength: 10 * 1000 * 1000, logLevel: 'info', expirationInterval: 60_000,
  loggers: [], corsRules: [], allowedHosts: [], allowRemoteNoAuth: false, tenants: [],
  taskTimeout: 5_000, taskMemoryLimit: 64 * 1024 * 1024, taskMaxHostCalls: 100_000, taskMaxWrite: 16 * 1024 * 1024, taskConcurrency: 4,
  backupRoots: [], backupTimeout: 3_600_000, declarations: [], updateDeclared: 'never', clusterName: 'cluster',
};

/** isolated-vm refuses smaller isolates. */
const MIN_TASK_MEMORY = 8 * 1024 * 1024;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Size text such as `10MB`, `512KiB` or a plain byte count. */
export function parseSize(text: string, what: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*((?:[KMGT]i?)?B?)\s*$/i.exec(text);
  if (!m) throw new ConfigError(`${what}: '${text}' is not a size (e.g. 10MB, 512KiB, 1048576)`);
  const unit = (m[2] ?? '').toUpperCase().replace(/B$/, '');
  const base = unit.endsWith('I') ? 1024 : 1000;
  const power = ' KMGT'.indexOf(unit.charAt(0) || ' ');
  return Math.floor(Number(m[1]) * base ** Math.max(power, 0));
}

export function parsePort(text: string | number, what = 'port'): number {
  const n = String(text).trim() === '' ? NaN : Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`${what}: '${text}' is not a port number (0-65535)`);
  return n;
}

/**
 * A node or cluster name (`node-name`, `cluster-name`): it travels in response headers and URL
 * paths, so printable ASCII (spaces inside), 1–255 characters.
 */
export function parseMemberName(text: string, what: string): string {
  if (!/^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/.test(text)) {
    throw new ConfigError(`${what}: '${text}' must be 1-255 printable ASCII characters, not starting or ending with a space`);
  }
  return text;
}

export function parseDurability(text: string): Durability {
  if (text !== 'power' && text !== 'process') throw new ConfigError(`durability: '${text}' must be 'power' or 'process'`);
  return text;
}

/** `basic`, `digest` or both, separated by commas or spaces (a YAML/JSON list works too). */
export function parseAuthMechanisms(value: unknown, what = 'auth-mechanisms'): AuthMechanism[] {
  const items = (Array.isArray(value) ? value.map(String) : String(value).split(/[\s,]+/)).map((m) => m.trim().toLowerCase()).filter(Boolean);
  const bad = items.find((m) => m !== 'basic' && m !== 'digest');
  if (bad !== undefined) throw new ConfigError(`${what}: '${bad}' is not a mechanism (basic, digest)`);
  if (!items.length) throw new ConfigError(`${what}: name at least one mechanism (basic, digest)`);
  return [...new Set(items as AuthMechanism[])];
}

/**
 * Reads the `--config` files in order into one set of overrides: a later file's settings win over
 * an earlier one's (`properties` and `limits` key by key), and their declarations add up.
 */
export function readConfigFiles(paths: readonly string[]): ConfigOverrides {
  let merged: ConfigOverrides = {};
  for (const path of paths) {
    const next = readConfigFile(path);
    merged = {
      ...merged, ...dropUndefined(next),
      properties: next.properties || merged.properties ? { ...merged.properties, ...next.properties } : undefined,
      limits: next.limits || merged.limits ? { ...merged.limits, ...next.limits } : undefined,
      engine: next.engine || merged.engine ? { ...merged.engine, ...dropUndefined(next.engine ?? {}) } : undefined,
      declarations: [...merged.declarations ?? [], ...next.declarations ?? []],
    };
  }
  return merged;
}

/**
 * Reads a server configuration file (YAML, JSON or XML) into overrides; unknown keys are errors.
 * A file of the original's format (an `infinispan` root) sets no server setting: it only declares.
 */
export function readConfigFile(path: string): ConfigOverrides {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read configuration file ${path}: ${(err as Error).message}`);
  }
  const format = fileFormatOf(path);
  const raw = parseDocument(text, extname(path).toLowerCase(), path);
  const source: DeclarationSource = { path, format, text };
  for (const rootKey of ['server', INFINISPAN_ROOT]) {
    if (raw && typeof raw === 'object' && rootKey in raw) {
      const others = Object.keys(raw).filter((k) => k !== rootKey);
      if (others.length) throw new ConfigError(`${path}: unknown setting '${others[0]}' beside '${rootKey}'`);
    }
  }
  if (raw && typeof raw === 'object' && INFINISPAN_ROOT in raw) return { declarations: [source] };
  const root = (raw && typeof raw === 'object' && 'server' in raw ? (raw as { server: unknown }).server : raw) ?? {};
  if (typeof root !== 'object' || Array.isArray(root)) throw new ConfigError(`${path}: expected a mapping of settings`);
  const out = fromObject(root as Record<string, unknown>, path);
  if (Object.keys(root).some((k) => DECLARATION_KEYS.has(k))) out.declarations = [source];
  return out;
}

function parseDocument(text: string, ext: string, path: string): unknown {
  try {
    if (ext === '.json') return JSON.parse(text);
    if (ext === '.xml') {
      // XML files are rare: the parser loads on use
      if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new ConfigError(`${path}: DOCTYPE and entities are not allowed`);
      const doc = (require('xml-js') as typeof import('xml-js')).xml2js(text, { compact: true, ignoreDeclaration: true, ignoreComment: true }) as Record<string, unknown>;
      const plain = xmlToPlain(doc) as Record<string, unknown>;
      return plain.server !== undefined ? plain.server : plain;
    }
    return (require('yaml') as typeof import('yaml')).parse(text, { maxAliasCount: 0 }); // YAML files are rare: loaded on use
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${path}: ${(err as Error).message}`);
  }
}

/** xml-js compact form → plain values: attributes and child elements become keys, text becomes the value; repeated elements a list. */
function xmlToPlain(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(xmlToPlain);
  if (typeof node !== 'object' || node === null) return node;
  const o = node as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => k !== '_attributes');
  if (keys.length === 1 && keys[0] === '_text' && !o._attributes) return String(o._text);
  const out: Record<string, unknown> = { ...(o._attributes as Record<string, string> | undefined) };
  for (const k of keys) if (k !== '_text') out[k] = xmlToPlain(o[k]);
  return out;
}

function fromObject(o: Record<string, unknown>, where: string): ConfigOverrides {
  const out: ConfigOverrides = {};
  for (const [key, value] of Object.entries(o)) {
    const text = String(value);
    switch (key) {
      case 'data': case 'data-dir': out.dataDir = text; break;
      case 'host': out.host = text; break;
      case 'port': out.port = parsePort(text, `${where}: port`); break;
      case 'durability': out.durability = parseDurability(text); break;
      case 'auth': out.authEnabled = parseBool(text, `${where}: auth`); break;
      case 'auth-mechanisms': out.authMechanisms = parseAuthMechanisms(value, `${where}: auth-mechanisms`); break;
      case 'digest-without-qop': out.digestWithoutQop = parseBool(text, `${where}: digest-without-qop`); break;
      case 'max-content-length': out.maxContentLength = parseSize(text, `${where}: max-content-length`); break;
      case 'log-level': out.logLevel = parseLogLevel(text); break;
      case 'loggers': out.loggers = parseLoggers(value, where); break;
      case 'node-name': out.nodeName = parseMemberName(text, `${where}: node-name`); break;
      case 'cluster-name': out.clusterName = parseMemberName(text, `${where}: cluster-name`); break;
      case 'expiration-interval': out.expirationInterval = parsePositiveInt(text, `${where}: expiration-interval`); break;
      case 'console': out.consoleDir = text; break;
      case 'cors-rules': out.corsRules = readCorsRules(value, where); break;
      case 'allowed-hosts': out.allowedHosts = readAllowedHosts(value, `${where}: allowed-hosts`); break;
      case 'allow-remote-no-auth': out.allowRemoteNoAuth = parseBool(text, `${where}: allow-remote-no-auth`); break;
      case 'tenants': out.tenants = parseTenants(value, where); break;
      case 'task-timeout': out.taskTimeout = parsePositiveInt(text, `${where}: task-timeout`); break;
      case 'task-memory-limit': out.taskMemoryLimit = parseTaskMemory(text, `${where}: task-memory-limit`); break;
      case 'task-max-host-calls': out.taskMaxHostCalls = parsePositiveInt(text, `${where}: task-max-host-calls`); break;
      case 'task-max-write': out.taskMaxWrite = parsePositiveSize(text, `${where}: task-max-write`); break;
      case 'task-concurrency': out.taskConcurrency = parsePositiveInt(text, `${where}: task-concurrency`); break;
      case 'backup-roots': out.backupRoots = parsePathList(value, `${where}: backup-roots`); break;
      case 'backup-timeout': out.backupTimeout = parsePositiveInt(text, `${where}: backup-timeout`); break;
      case 'update-declared': out.updateDeclared = parseUpdateDeclared(text, `${where}: update-declared`); break;
      case 'engine': out.engine = readEngineSetting(value, where); break;
      case 'properties':
        if (typeof value !== 'object' || value === null) throw new ConfigError(`${where}: properties must be a mapping`);
        out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
        break;
      case 'limits':
        if (typeof value !== 'object' || value === null) throw new ConfigError(`${where}: limits must be a mapping`);
        out.limits = readLimits(value as Record<string, unknown>, where);
        break;
      default:
        if (DECLARATION_KEYS.has(key)) break; // read by src/model/declarations, with their locations in the file
        if (!readTlsSetting(out, key, text, (t) => parsePort(t, `${where}: ${key}`))) throw new ConfigError(`${where}: unknown setting '${key}'`);
    }
  }
  return out;
}

/** `limits:` of a file or `--limit name=value` of the command line. */
export function readLimits(values: Record<string, unknown>, where: string): Partial<Limits> {
  try {
    return parseLimits(values, where, parseSize);
  } catch (err) {
    if (err instanceof LimitError) throw new ConfigError(err.message);
    throw err;
  }
}

function parseBool(text: string, what: string): boolean {
  if (text === 'true' || text === 'false') return text === 'true';
  throw new ConfigError(`${what}: '${text}' must be true or false`);
}

function parsePositiveSize(text: string, what: string): number {
  const n = parseSize(text, what);
  if (n <= 0) throw new ConfigError(`${what}: '${text}' must be more than 0 bytes`);
  return n;
}

function parseTaskMemory(text: string, what: string): number {
  const n = parseSize(text, what);
  if (n < MIN_TASK_MEMORY) throw new ConfigError(`${what}: '${text}' must be at least 8MiB`);
  return n;
}

/** A list of directories: a YAML/JSON array, or one string separated like PATH (`:` on Linux). */
function parsePathList(value: unknown, what: string): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(delimiter) : undefined;
  if (!items || items.some((p) => typeof p !== 'string')) throw new ConfigError(`${what}: expected a list of directories`);
  const paths = (items as string[]).map((p) => p.trim()).filter((p) => p !== '');
  return paths.map((p) => resolve(p));
}

function parsePositiveInt(text: string, what: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${what}: '${text}' must be a positive integer`);
  return n;
}

export function parseLogLevel(text: string): string {
  if (!LOG_LEVELS.includes(text)) throw new ConfigError(`log-level: '${text}' must be one of ${LOG_LEVELS.join(', ')}`);
  return text;
}

/**
 * Defaults, then the file, then the command line (flags win), then the environment's APP_USER
 * (and the TLS password, tls-config.ts; the Redis password, engine-config.ts).
 * The only place that reads `process.env`.
 */
export function resolveConfig(file: ConfigOverrides, flags: ConfigOverrides, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const merged = { ...DEFAULTS, ...dropUndefined(withoutTls(file)), ...dropUndefined(withoutTls(flags)) };
  const config: ServerConfig = {
    ...merged,
    dataDir: resolve(merged.dataDir),
    consoleDir: merged.consoleDir === undefined ? undefined : checkConsoleDir(merged.consoleDir),
    backupRoots: merged.backupRoots.map((p) => resolve(p)),
    properties: { ...file.properties, ...flags.properties },
    tls: resolveTls(file, flags, env, merged.port),
    limits: { ...DEFAULT_LIMITS, ...file.limits, ...flags.limits },
    engine: resolveEngine(file.engine, flags.engine, env),
    declarations: [...file.declarations ?? [], ...flags.declarations ?? []],
  };
  const hostsProperty = config.properties[ALLOWED_HOSTS_PROPERTY];
  if (hostsProperty !== undefined) config.allowedHosts = [...config.allowedHosts, ...readAllowedHosts(hostsProperty, `-D${ALLOWED_HOSTS_PROPERTY}`)];
  if (!config.authEnabled && !config.allowRemoteNoAuth && !isLoopbackHost(config.host)) {
    throw new ConfigError(`--no-auth on '${config.host}', an address other machines can reach, would give all of them full admin access. `
      + 'Listen on 127.0.0.1 (the default), keep authentication on, or add --allow-remote-no-auth to do it anyway');
  }
  if (env.APP_USER) {
    if (!env.APP_PASS) throw new ConfigError('APP_USER is set but APP_PASS is not');
    config.appUser = { name: env.APP_USER, password: env.APP_PASS, roles: (env.APP_ROLE ?? 'admin').split(',').map((r) => r.trim()) };
  }
  return config;
}

/**
 * This node's name: `node-name` when set; else the host name, and on the redis engine the host
 * name and the port it listens on (`host-11222`), so that several nodes on one machine differ
 * (docs/scale-out.md, "Membership").
 */
export function nodeNameOf(config: ServerConfig, port: number): string {
  return config.nodeName ?? (config.engine.type === 'redis' ? `${hostname()}-${port}` : hostname());
}

/**
 * The console directory must exist and hold the console's index.html; its real path is kept, so
 * the files served are checked against where the directory really is.
 */
export function checkConsoleDir(dir: string): string {
  const hint = 'point it at a built Infinispan web console (see docs/console.md)';
  let real: string;
  try {
    real = realpathSync(resolve(dir));
  } catch {
    throw new ConfigError(`console: '${dir}' does not exist; ${hint}`);
  }
  if (!statSync(real).isDirectory()) throw new ConfigError(`console: '${dir}' is not a directory; ${hint}`);
  let index;
  try {
    index = statSync(join(real, 'index.html'));
  } catch {
    index = undefined;
  }
  if (!index?.isFile()) throw new ConfigError(`console: '${dir}' has no index.html; ${hint}`);
  return real;
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
