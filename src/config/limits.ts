/**
 * Caps on what one client or one request can make the server hold or compute. Each has a default
 * that a real deployment never reaches and a name under which the configuration file (`limits:`)
 * or the command line (`--limit name=value`) changes it; docs/security.md "Limits" lists them.
 */
export interface Limits {
  /** Bytes of one cache or template configuration (create, update, convert, toJSON, compare, restore). */
  configBytes: number;
  /** Elements (XML elements, JSON/YAML objects) in one configuration. */
  configElements: number;
  /** Attributes (XML attributes, JSON/YAML scalars and lists) in one configuration. */
  configAttributes: number;
  /** Nesting depth of one configuration (XML elements, JSON/YAML objects and arrays). */
  configDepth: number;
  /** Bytes of one `.proto` schema file. */
  schemaBytes: number;
  /** Fields (and enum values) declared directly in one message or enum. */
  schemaFields: number;
  /** Declarations (messages, enums, fields, options…) in one `.proto` file. */
  schemaDeclarations: number;
  /** Nesting depth of `{ }` blocks in one `.proto` file. */
  schemaDepth: number;
  /** Declarations of all the `.proto` files of one container together. */
  schemaTotalDeclarations: number;
  /** Bytes of all the `.proto` files of one container together. */
  schemaTotalBytes: number;
  /** Open connections of the whole server. */
  connections: number;
  /** Open connections from one client address (an IPv6 client's /64), authenticated or not. */
  connectionsPerAddress: number;
  /** Open connections on which one user has authenticated. */
  connectionsPerUser: number;
  /** Open event streams (`?action=listen`, `/container/config?action=listen`, …) of one user. */
  listenersPerUser: number;
  /** Open event streams of the whole server. */
  listeners: number;
  /** Configuration events each container keeps, so that an event stream can be resumed (`Last-Event-ID`). */
  configEventLog: number;
  /** Bytes of request bodies held in memory at once, all requests together (a body is read whole before it is used). */
  requestBodyMemory: number;
  /** Milliseconds a client has to send the request line and headers (slowloris). */
  headersTimeout: number;
  /** Milliseconds a client has to send the whole request, body included (over HTTP/2: without a frame on its stream). */
  requestTimeout: number;
  /** Milliseconds an idle keep-alive connection stays open (over HTTP/2: a session without any frame, whatever its streams). */
  keepAliveTimeout: number;
  /** Milliseconds one query (search) may run, its index statements included. */
  queryTimeout: number;
  /** Rows one query answer may hold: its matches up to offset + max_results. */
  queryRows: number;
  /** Bytes of the hits one query answer may hold (stored values while collected, JSON once written). */
  queryAnswerBytes: number;
  /** Index terms the full-text expansions of one query (fuzzy, wildcard, regexp, range) may look at. */
  queryExpansionTerms: number;
  /** Bytes of one uploaded task script (it is compiled at upload and copied into an isolate at each run). */
  scriptBytes: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = {
  configBytes: 1024 * 1024,
  configElements: 1000,
  configAttributes: 5000,
  configDepth: 32,
  schemaBytes: 1024 * 1024,
  schemaFields: 500,
  schemaDeclarations: 50_000,
  schemaDepth: 32,
  schemaTotalDeclarations: 50_000,
  schemaTotalBytes: 8 * 1024 * 1024,
  connections: 4096,
  connectionsPerAddress: 512,
  connectionsPerUser: 1024,
  listenersPerUser: 32,
  listeners: 256,
  configEventLog: 10_000,
  requestBodyMemory: 256 * 1024 * 1024,
  headersTimeout: 20_000,
  requestTimeout: 120_000,
  keepAliveTimeout: 65_000,
  queryTimeout: 30_000,
  queryRows: 10_000,
  queryAnswerBytes: 32 * 1024 * 1024,
  queryExpansionTerms: 1_000_000,
  scriptBytes: 1024 * 1024,
};

/** `config-bytes` ⇄ `configBytes`: the names a user writes. */
export const LIMIT_NAMES: ReadonlyArray<readonly [string, keyof Limits]> = (Object.keys(DEFAULT_LIMITS) as Array<keyof Limits>)
  .map((key) => [key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), key] as const);

const SIZES = new Set<keyof Limits>(['configBytes', 'schemaBytes', 'schemaTotalBytes', 'queryAnswerBytes', 'requestBodyMemory', 'scriptBytes']);

export class LimitError extends Error {}

/**
 * Reads `name: value` pairs (kebab-case names; sizes as `1MiB`, `512KB` or bytes; the rest
 * positive integers, time-outs in ms). Unknown names are errors, as everywhere in the configuration.
 */
export function parseLimits(values: Record<string, unknown>, where: string, parseSize: (text: string, what: string) => number): Partial<Limits> {
  const out: Partial<Limits> = {};
  for (const [name, raw] of Object.entries(values)) {
    const key = LIMIT_NAMES.find(([n]) => n === name)?.[1];
    if (!key) throw new LimitError(`${where}: unknown limit '${name}' (known: ${LIMIT_NAMES.map(([n]) => n).join(', ')})`);
    const text = String(raw).trim();
    const n = SIZES.has(key) ? parseSize(text, `${where}: ${name}`) : Number(text);
    if (!Number.isSafeInteger(n) || n <= 0) throw new LimitError(`${where}: limit ${name} '${text}' must be a positive integer`);
    out[key] = n;
  }
  return out;
}
