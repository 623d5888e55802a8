import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './server-config-error';

/**
 * Where a container's data lives (docs/scale-out.md, "Configuration"): the embedded SQLite store
 * (the default: nothing else to run), or a Redis Cluster that several grid nodes share.
 */
export type EngineConfig = { type: 'sqlite' } | RedisEngineConfig;

export interface RedisNodeAddress {
  host: string;
  port: number;
}

export interface RedisEngineConfig {
  type: 'redis';
  /** Seed nodes, in the order they are tried: any node of the cluster tells the rest. */
  nodes: RedisNodeAddress[];
  /** The nodes' password (`requirepass`): from a file or the environment, never from argv. Never logged. */
  password?: string;
  /** The file the password was read from, when it was (absolute): what the node records for the CLI. */
  passwordFile?: string;
  /** TLS to every node; undefined: plain TCP. */
  tls?: RedisTlsConfig;
  /** Keeps this grid's data apart from other grids on the same cluster: a prefix of every key (docs/scale-out.md, "Configuration"). */
  namespace?: string;
}

/** TLS to the nodes; files as absolute paths, read when grid connects. */
export interface RedisTlsConfig {
  /** PEM certificates trusted for the nodes' (default: Node's CA list). */
  caFile?: string;
  /** PEM client certificate and key, for a cluster that asks for one (`tls-auth-clients`). */
  certFile?: string;
  keyFile?: string;
  /** The name the nodes' certificates carry, when it is not the address connected to. */
  serverName?: string;
}

/** What a configuration file or the flags say about the engine; undefined = not given. */
export interface EngineOverrides {
  type?: EngineConfig['type'];
  nodes?: RedisNodeAddress[];
  /** The file only: `password` in the file; the flags have no password, only its file. */
  password?: string;
  passwordFile?: string;
  tls?: RedisTlsConfig;
  namespace?: string;
}

/** The password's environment variable, so it need be neither on a command line nor in a file. */
export const REDIS_PASSWORD_ENV = 'GRID_REDIS_PASSWORD';

const TYPES: ReadonlyArray<EngineConfig['type']> = ['sqlite', 'redis'];
const FILE_KEYS = ['type', 'nodes', 'password', 'password-file', 'tls', 'namespace'];
const NAMESPACE = /^[A-Za-z0-9_-]{1,64}$/;
const TLS_KEYS = ['ca', 'cert', 'key', 'server-name'];

export function parseEngineType(text: string, what = '--engine'): EngineConfig['type'] {
  const type = TYPES.find((t) => t === text);
  if (type === undefined) throw new ConfigError(`${what}: '${text}' is not an engine: sqlite (the default) or redis`);
  return type;
}

/**
 * `HOST:PORT[,HOST:PORT…]` (a list in a file works too); an IPv6 address goes in brackets,
 * `[::1]:7000`.
 */
export function parseRedisNodes(value: unknown, what = '--redis'): RedisNodeAddress[] {
  const items = (Array.isArray(value) ? value.map(String) : String(value).split(',')).map((s) => s.trim()).filter(Boolean);
  if (!items.length) throw new ConfigError(`${what}: name at least one node of the cluster, as HOST:PORT`);
  return items.map((item) => {
    const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]/]+)):(\d{1,5})$/.exec(item);
    const port = m ? Number(m[3]) : NaN;
    if (!m || port < 1 || port > 65_535) throw new ConfigError(`${what}: '${item}' is not HOST:PORT (e.g. 127.0.0.1:7000, [::1]:7000)`);
    return { host: m[1] ?? m[2], port };
  });
}

/** `engine:` of a configuration file: `sqlite`, `redis`, or a mapping `{type, nodes, password-file, tls}`. */
export function readEngineSetting(value: unknown, where: string): EngineOverrides {
  const what = `${where}: engine`;
  if (typeof value === 'string') return { type: parseEngineType(value, what) };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(`${what}: expected sqlite, redis or a mapping {type, nodes, password-file, tls}`);
  const o = value as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !FILE_KEYS.includes(k));
  if (unknown !== undefined) throw new ConfigError(`${what}: unknown setting '${unknown}' (there are ${FILE_KEYS.join(', ')})`);
  const out: EngineOverrides = {
    type: o.type === undefined ? undefined : parseEngineType(String(o.type), `${what}.type`),
    nodes: o.nodes === undefined ? undefined : parseRedisNodes(o.nodes, `${what}.nodes`),
    password: o.password === undefined ? undefined : String(o.password),
    passwordFile: o['password-file'] === undefined ? undefined : String(o['password-file']),
    tls: o.tls === undefined ? undefined : readTls(o.tls, `${what}.tls`),
    namespace: o.namespace === undefined ? undefined : parseNamespace(String(o.namespace), `${what}.namespace`),
  };
  if (out.password !== undefined && out.passwordFile !== undefined) throw new ConfigError(`${what}: give either password or password-file, not both`);
  if (out.type === 'sqlite' && (out.nodes || out.password !== undefined || out.passwordFile !== undefined || out.tls || out.namespace !== undefined)) {
    throw new ConfigError(`${what}: nodes, password, password-file, tls and namespace belong to type redis`);
  }
  return out;
}

/** `tls: true` (Node's CA list) or `{ca, cert, key, server-name}`. */
function readTls(value: unknown, what: string): RedisTlsConfig | undefined {
  if (value === true || value === 'true') return {};
  if (value === false || value === 'false') return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(`${what}: expected true, false or a mapping {${TLS_KEYS.join(', ')}}`);
  const o = value as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !TLS_KEYS.includes(k));
  if (unknown !== undefined) throw new ConfigError(`${what}: unknown setting '${unknown}' (there are ${TLS_KEYS.join(', ')})`);
  const file = (k: string) => (o[k] === undefined ? undefined : resolve(String(o[k])));
  const tls: RedisTlsConfig = { caFile: file('ca'), certFile: file('cert'), keyFile: file('key'), serverName: o['server-name'] === undefined ? undefined : String(o['server-name']) };
  if ((tls.certFile === undefined) !== (tls.keyFile === undefined)) throw new ConfigError(`${what}: cert and key go together: give both or neither`);
  return tls;
}

/**
 * The engine the settings ask for: flags win over the file. The password comes from
 * `--redis-password-file`, else the file's `password`/`password-file`, else GRID_REDIS_PASSWORD;
 * from a password file its first line.
 */
export function resolveEngine(file: EngineOverrides = {}, flags: EngineOverrides = {}, env: NodeJS.ProcessEnv = {}): EngineConfig {
  const type = flags.type ?? file.type ?? 'sqlite';
  if (type === 'sqlite') {
    if (flags.nodes || flags.passwordFile !== undefined) throw new ConfigError('--redis and --redis-password-file apply to --engine redis: add --engine redis, or leave them out');
    return { type };
  }
  const nodes = flags.nodes ?? file.nodes;
  if (!nodes) throw new ConfigError('--engine redis needs the cluster\'s nodes: --redis HOST:PORT[,HOST:PORT…], or engine.nodes in the configuration file');
  const fromFlag = passwordFrom(flags.passwordFile, '--redis-password-file');
  const fromFile = fromFlag === undefined && file.password === undefined ? passwordFrom(file.passwordFile, 'engine.password-file') : undefined;
  const password = fromFlag ?? file.password ?? fromFile ?? env[REDIS_PASSWORD_ENV];
  const passwordFile = fromFlag !== undefined ? flags.passwordFile : fromFile !== undefined ? file.passwordFile : undefined;
  return {
    type, nodes, password: password === '' ? undefined : password, passwordFile: passwordFile === undefined ? undefined : resolve(passwordFile),
    tls: file.tls, namespace: flags.namespace ?? file.namespace,
  };
}

/** A namespace: 1–64 letters, digits, `_` or `-` (it goes into every key's hash tag). */
export function parseNamespace(text: string, what: string): string {
  if (!NAMESPACE.test(text)) throw new ConfigError(`${what}: '${text}' is not a namespace: 1 to 64 letters, digits, _ or -`);
  return text;
}

function passwordFrom(path: string | undefined, what: string): string | undefined {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read ${what} ${path}: ${(err as Error).message}`);
  }
  const first = text.split(/\r?\n/)[0];
  if (first === '') throw new ConfigError(`${what} ${path}: the first line is empty; it should hold the password`);
  return first;
}
