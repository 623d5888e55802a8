import fc from 'fast-check';
import type { Role } from './server';

/** One generated request; `as` says whose credentials it carries. */
export interface FuzzRequest {
  method: string;
  path: string;
  as: Role | 'anonymous' | 'wrong-password';
  headers: Record<string, string>;
  body?: Buffer;
}

// Small pools of names so that requests meet each other's resources (a cache created by one is
// written, listed, converted and deleted by others), plus hostile names the naming rule refuses.
const CACHES = ['fz-a', 'fz-b', 'fz-persist', 'fz-proto', '___protobuf_metadata', '___script_cache', 'missing'];
const HOSTILE_NAMES = ['a%00b', 'a%0D%0Ab', 'a%2Fb', 'a..b', '%2E%2E', '%C0%AF', '%', 'x'.repeat(300), '__proto__', 'constructor', 'a+b', '%E2%82%AC'];
const KEYS = ['k', 'k2', '%00', 'a%2Fb', 'key with space', '__proto__', '0', '-1', 'x'.repeat(200)];
const SCHEMAS = ['fz.proto', 'fz2.proto', 'dep.proto', 'missing.proto', 'a.errors', '.errors', 'fz.proto.errors'];
const COUNTERS = ['fz-weak', 'fz-strong', 'missing'];
const TASKS = ['fz-task', 'missing', '@@cache@names', '@@cache@create', '@@template@names'];
const BACKUPS = ['fz-backup', 'fz-backup2', 'missing'];
const ACTIONS = [
  'config', 'keys', 'entries', 'clear', 'size', 'stats', 'stats-reset', 'health', 'get-availability', 'set-availability',
  'convert', 'toJSON', 'detailed', 'types', 'increment', 'decrement', 'add', 'reset', 'compareAndSet', 'compareAndSwap',
  'getAndSet', 'set', 'exec', 'search', 'listen', 'flush', 'grant', 'deny', 'take-offline', 'bring-online', 'push-state-status',
  'distribution', 'enable-rebalancing', 'disable-rebalancing', '', 'nonsense', 'compare',
];

const name = (pool: string[]) => fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_NAMES) });
const printable = (max: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: max });

const resourcePaths: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(name(CACHES)).map(([c]) => `/rest/v2/caches/${c}`),
  fc.tuple(name(CACHES), name(KEYS)).map(([c, k]) => `/rest/v2/caches/${c}/${k}`),
  fc.tuple(name(CACHES), name(KEYS)).map(([c, k]) => `/rest/${c}/${k}`),
  fc.constantFrom('/rest/v2/caches', '/rest/v2/caches/', '/rest/v2/counters', '/rest/v2/schemas', '/rest/v2/tasks', '/rest/v2/cache-configs/templates',
    '/rest/v2/container', '/rest/v2/container/config', '/rest/v2/container/health', '/rest/v2/container/stats', '/rest/v2/container/caches',
    '/rest/v2/container/cache-configs', '/rest/v2/server', '/rest/v2/server/config', '/rest/v2/server/memory', '/rest/v2/server/threads',
    '/rest/v2/server/report', '/rest/v2/server/overview-report', '/rest/v2/server/connectors', '/rest/v2/server/ignored-caches',
    '/rest/v2/cluster', '/rest/v2/cluster/members', '/metrics', '/health/live', '/health/ready', '/rest/v2/login',
    '/rest/v2/security/user/acl', '/rest/v2/security/roles', '/rest/v2/security/principals', '/rest/v2/security/users',
    '/rest/v2/logging/loggers', '/rest/v2/logging/appenders', '/rest/v2/container/backups', '/rest/v2/container/restores',
    '/rest/v2/container/x-site/backups', '/', '/rest', '/rest/v2', '/rest/v3/caches', '//rest//v2//caches//', '/rest/v2/caches/%', '/%zz'),
  fc.tuple(name(COUNTERS)).map(([c]) => `/rest/v2/counters/${c}`),
  fc.tuple(name(COUNTERS)).map(([c]) => `/rest/v2/counters/${c}/config`),
  fc.tuple(name(SCHEMAS)).map(([s]) => `/rest/v2/schemas/${s}`),
  fc.tuple(name(TASKS)).map(([t]) => `/rest/v2/tasks/${t}`),
  fc.tuple(name(BACKUPS)).map(([b]) => `/rest/v2/container/backups/${b}`),
  fc.tuple(name(BACKUPS)).map(([b]) => `/rest/v2/container/restores/${b}`),
  fc.tuple(name(CACHES)).map(([c]) => `/rest/v2/server/ignored-caches/default/${c}`),
  fc.tuple(name(['admin', 'monitor', 'nobody', 'fz-role'])).map(([p]) => `/rest/v2/security/roles/${p}`),
  fc.tuple(name(['admin', 'fz-role', 'nobody'])).map(([r]) => `/rest/v2/security/permissions/${r}`),
  fc.tuple(name(CACHES)).map(([c]) => `/rest/v2/caches/${c}/x-site/backups`),
);

const queryPart: fc.Arbitrary<string> = fc.tuple(
  fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...ACTIONS) }),
  fc.array(fc.tuple(
    fc.constantFrom('pretty', 'template', 'limit', 'batch', 'metadata', 'value', 'delta', 'expect', 'update', 'role', 'availability',
      'param.greetee', 'param.name', 'param.configuration', 'includeCurrentState', 'ignoreMutable', 'type', 'permission', 'content-negotiation'),
    fc.oneof(fc.constantFrom('true', 'false', '1', '-1', '0', '9223372036854775808', 'admin', 'fz-a', '%00', 'AVAILABLE', '{"local-cache":{}}'), printable(12).map(encodeURIComponent)),
  ), { maxLength: 3 }),
).map(([action, params]) => {
  const parts = [...(action === undefined ? [] : [`action=${action}`]), ...params.map(([k, v]) => `${k}=${v}`)];
  return parts.length ? `?${parts.join('&')}` : '';
});

// ---- bodies ---------------------------------------------------------------------------------

const ELEMENTS = ['memory', 'expiration', 'encoding', 'persistence', 'indexing', 'security', 'locking', 'transaction', 'backups', 'key', 'value', 'file-store', 'authorization', 'constructor', '__proto__', 'toString', 'bogus'];
const ATTRIBUTES = ['max-count', 'max-size', 'when-full', 'lifespan', 'max-idle', 'media-type', 'statistics', 'mode', 'passivation', 'enabled', 'roles', 'storage', 'name', 'constructor', '__proto__', 'bogus'];
const VALUES = ['1', '-1', '100', '10MB', 'REMOVE', 'EXCEPTION', 'application/json', 'application/x-protostream', 'text/plain', 'true', 'false', 'SYNC', 'x', '', '1e999', '9'.repeat(30)];
const KINDS = ['local-cache', 'distributed-cache', 'replicated-cache', 'invalidation-cache', 'local-cache-configuration', 'nope'];

interface Tree { name: string; attrs: Array<[string, string]>; children: Tree[] }

const treeOf = (depth: number): fc.Arbitrary<Tree> => fc.record({
  name: fc.constantFrom(...ELEMENTS),
  attrs: fc.array(fc.tuple(fc.constantFrom(...ATTRIBUTES), fc.constantFrom(...VALUES)), { maxLength: 3 }),
  children: depth === 0 ? fc.constant([]) : fc.array(treeOf(depth - 1), { maxLength: 2 }),
});
const tree = treeOf(3);

const escapeXml = (s: string) => s.replace(/[<&"]/g, (c) => ({ '<': '&lt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);
const toXml = (t: Tree): string => `<${t.name}${t.attrs.map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join('')}>${t.children.map(toXml).join('')}</${t.name}>`;
const toObject = (t: Tree): Record<string, unknown> => {
  const o: Record<string, unknown> = {};
  for (const [k, v] of t.attrs) o[k] = v;
  for (const c of t.children) o[c.name] = toObject(c);
  return o;
};
const camel = (s: string) => s.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
const toYaml = (o: Record<string, unknown>, indent = ''): string => Object.entries(o)
  .map(([k, v]) => (typeof v === 'object' && v !== null ? `${indent}${camel(k)}:\n${toYaml(v as Record<string, unknown>, indent + '  ') || `${indent}  {}`}` : `${indent}${camel(k)}: ${JSON.stringify(v)}`))
  .join('\n');

const cacheConfig: fc.Arbitrary<{ type: string; body: string }> = fc.tuple(fc.constantFrom(...KINDS), tree, fc.constantFrom('xml', 'json', 'yaml'), fc.boolean())
  .map(([kind, t, format, named]) => {
    const root: Tree = { ...t, name: kind };
    if (format === 'xml') return { type: 'application/xml', body: named ? `<infinispan><cache-container><${kind} name="fz">${toXml(t)}</${kind}></cache-container></infinispan>` : toXml(root) };
    const object = { [kind]: toObject(root) };
    const doc = named ? { fz: object } : object;
    if (format === 'json') return { type: 'application/json', body: JSON.stringify(doc) };
    return { type: 'application/yaml', body: toYaml(doc as Record<string, unknown>) + '\n' };
  });

const FIELD_TYPES = ['string', 'int32', 'int64', 'bool', 'double', 'bytes', 'Inner', 'Missing', 'fz.Other'];
const protoSchema: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom('', 'syntax = "proto2";\n', 'syntax = "proto3";\n', 'syntax = "proto9";\n'),
  fc.option(fc.constantFrom('package fz;', 'package fz.sub;', 'package ;'), { nil: undefined }),
  fc.option(fc.constantFrom('import "dep.proto";', 'import "missing.proto";', 'import "fz.proto";'), { nil: undefined }),
  fc.array(fc.tuple(fc.constantFrom('M', 'Inner', 'Person', 'Other', 'M'), fc.array(fc.tuple(fc.constantFrom('optional', 'required', 'repeated', '', 'messoge'), fc.constantFrom(...FIELD_TYPES), fc.integer({ min: -1, max: 600 })), { maxLength: 12 }), fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined })), { maxLength: 5 }),
  fc.boolean(),
).map(([syntax, pkg, imp, messages, truncate]) => {
  const text = [syntax, pkg ?? '', imp ?? '', ...messages.map(([n, fields, typeId]) =>
    `${typeId === undefined ? '' : `/** @TypeId(${typeId}) */\n`}message ${n} {\n${fields.map(([label, type, id], i) => `  ${label} ${type} f${i} = ${id};`).join('\n')}\n}`)].join('\n');
  return truncate ? text.slice(0, Math.floor(text.length / 2)) : text;
});

const protostreamJson: fc.Arbitrary<string> = fc.tuple(fc.constantFrom('fz.M', 'fz.Person', 'string', 'int32', 'Missing', ''), fc.dictionary(fc.constantFrom('f0', 'f1', 'f2', '_value', '__proto__'), fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 4 }))
  .map(([type, fields]) => JSON.stringify({ _type: type, ...fields }));

const deepJson: fc.Arbitrary<string> = fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('[', '{"a":')).map(([depth, open]) =>
  open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth));

const counterConfig = fc.tuple(fc.constantFrom('weak-counter', 'strong-counter', 'nope'), fc.dictionary(fc.constantFrom('initial-value', 'storage', 'concurrency-level', 'lower-bound', 'upper-bound'), fc.constantFrom('0', '-5', '10', 'VOLATILE', 'PERSISTENT', 'x', '99999999999999999999'), { maxKeys: 3 }))
  .map(([kind, attrs]) => JSON.stringify({ [kind]: attrs }));

const taskScript = fc.constantFrom(
  '// mode=local,language=javascript,parameters=[greetee]\n"Hello " + greetee',
  '// mode=local,language=javascript\n1 + 1',
  '// language=python\nprint(1)',
  '// mode=local,language=javascript\n)',
  '',
);

function multipart(boundary: string, parts: Array<[string, Buffer | string]>, broken: boolean): Buffer {
  const chunks: Buffer[] = [];
  for (const [field, content] of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${field}.zip"\r\nContent-Type: application/zip\r\n\r\n`));
    chunks.push(Buffer.isBuffer(content) ? content : Buffer.from(content));
    chunks.push(Buffer.from('\r\n'));
  }
  if (!broken) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/**
 * Bodies for every kind of resource, and junk; zips come from a fixed pool (see the fuzz test);
 * backup `directory` and restore `location` values aim at `outside`, a folder nothing may write to.
 */
function bodies(zips: Buffer[], outside: string): fc.Arbitrary<{ type?: string; body: Buffer }> {
  const places = [outside, `${outside}/x.zip`, '../../..', 'fz-dir', '/proc/self', '/proc/self/environ', '/dev/zero', ''];
  const text = (type: string | undefined, s: fc.Arbitrary<string>) => s.map((body) => ({ type, body: Buffer.from(body) }));
  return fc.oneof(
    { weight: 4, arbitrary: cacheConfig.map(({ type, body }) => ({ type, body: Buffer.from(body) })) },
    { weight: 2, arbitrary: text(undefined, protoSchema) },
    { weight: 2, arbitrary: text('application/json', protostreamJson) },
    { weight: 1, arbitrary: text('application/json', deepJson) },
    { weight: 2, arbitrary: text('application/json', counterConfig) },
    { weight: 1, arbitrary: text('text/plain', taskScript) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...zips), fc.constantFrom('backup', 'resources', 'x'), fc.boolean(), fc.constantFrom('fzb', 'other')).map(([zip, field, broken, b]) => ({ type: `multipart/form-data; boundary=${b === 'fzb' ? 'fzb' : 'mismatch'}`, body: multipart('fzb', [[field, zip]], broken) })) },
    { weight: 1, arbitrary: fc.constantFrom(...zips).map((zip) => ({ type: 'application/zip', body: zip })) },
    { weight: 1, arbitrary: text('application/json', fc.constantFrom('{"resources":{"caches":["*"]}}', '{"resources":{"caches":["fz-a"],"counters":["*"]}}', '{}', '{"resources":')) },
    { weight: 1, arbitrary: text('application/json', fc.tuple(fc.constantFrom('directory', 'location'), fc.constantFrom(...places)).map(([k, v]) => JSON.stringify({ [k]: v }))) },
    { weight: 2, arbitrary: text(undefined, fc.string({ maxLength: 64 })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((b) => ({ type: 'application/octet-stream', body: Buffer.from(b) })) },
  );
}

const HEADER_VALUES: Record<string, fc.Arbitrary<string>> = {
  Accept: fc.constantFrom('application/json', 'application/xml', 'application/yaml', 'text/plain', 'application/x-protostream', 'application/x-java-object', '*/*', 'image/png', 'application/json;q=0.1, text/plain;q=0.9', ';;;'),
  'Key-Content-Type': fc.constantFrom('text/plain', 'application/json', 'application/x-java-object;type=java.lang.Integer', 'bogus/type', ''),
  flags: fc.constantFrom('SKIP_CACHE_LOAD', 'VOLATILE', 'UPDATE', 'NOPE', 'SKIP_CACHE_LOAD,IGNORE_RETURN_VALUES'),
  timeToLiveSeconds: fc.constantFrom('0', '-1', '10', 'abc', '99999999999999999999'),
  maxIdleTimeSeconds: fc.constantFrom('0', '-1', '5', 'x'),
  'If-None-Match': fc.constantFrom('*', '"abc"', 'x'),
  'If-Match': fc.constantFrom('*', '"abc"'),
  'If-Modified-Since': fc.constantFrom('Mon, 01 Jan 2024 00:00:00 GMT', 'yesterday'),
  'Cache-Control': fc.constantFrom('min-fresh=10', 'no-cache', 'min-fresh=x'),
  Origin: fc.constantFrom('http://evil.example', 'null'),
  extended: fc.constantFrom('true', 'false'),
  'X-Fuzz': printable(40),
};

export function fuzzRequests(zips: Buffer[], outside: string): fc.Arbitrary<FuzzRequest> {
  return fc.record({
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom('GET', 'GET', 'GET', 'GET', 'HEAD', 'POST', 'POST', 'POST', 'PUT', 'PUT', 'PUT', 'DELETE') },
      { weight: 1, arbitrary: fc.constantFrom('OPTIONS', 'PATCH', 'PROPFIND', 'FUZZ') },
    ),
    path: fc.tuple(resourcePaths, queryPart).map(([p, q]) => p + q),
    as: fc.constantFrom<FuzzRequest['as']>('admin', 'admin', 'deployer', 'application', 'application', 'observer', 'monitor', 'anonymous', 'wrong-password'),
    headerNames: fc.subarray(Object.keys(HEADER_VALUES), { maxLength: 3 }),
    body: fc.option(bodies(zips, outside), { nil: undefined, freq: 3 }),
    overrideType: fc.option(fc.constantFrom('text/plain', 'application/json', 'application/xml', 'application/yaml', 'application/x-protostream', 'multipart/form-data', 'nonsense', ''), { nil: undefined, freq: 4 }),
  }).chain((r) => fc.tuple(...r.headerNames.map((n) => HEADER_VALUES[n])).map((values) => {
    const headers: Record<string, string> = {};
    r.headerNames.forEach((n, i) => { headers[n] = values[i]; });
    const type = r.overrideType ?? r.body?.type;
    if (r.body && type !== undefined && type !== '') headers['Content-Type'] = type;
    return { method: r.method, path: r.path, as: r.as, headers, body: r.body?.body };
  }));
}

/** Requests the fuzzer never sends: they stop the server or the container on purpose. */
export function isDestructive(r: FuzzRequest): boolean {
  return /[?&]action=(stop|shutdown)\b/.test(r.path) || (r.path.startsWith('/rest/v2/logging') && r.method !== 'GET');
}
