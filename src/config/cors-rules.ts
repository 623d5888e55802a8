import { ConfigError } from './server-config-error';

/** One configured `cors-rule` (docs/reference/http.md#cors), validated; lists are already split. */
export interface CorsRuleConfig {
  name: string;
  allowCredentials: boolean;
  /** Origins (`scheme://host[:port]`), or `*` for every origin. */
  allowedOrigins: string[];
  allowedMethods: string[];
  allowedHeaders: string[];
  maxAgeSeconds?: number;
  exposeHeaders: string[];
}

/** `-Dgrid.server.rest.cors-allow=o1,o2` grants everything to those origins, before any rule. */
export const CORS_ALLOW_PROPERTY = 'grid.server.rest.cors-allow';

const RULE_KEYS = new Set(['name', 'allow-credentials', 'allowed-origins', 'allowed-methods', 'allowed-headers', 'max-age-seconds', 'expose-headers']);
/** An origin as browsers send it: scheme, host, optional port; no path, no trailing slash. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/(?:\[[0-9a-f:.]+\]|[^\s/?#@[\]:]+)(?::\d{1,5})?$/i;
/** An HTTP token (RFC 9110 §5.6.2): method and header names. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

export function isValidOrigin(text: string): boolean {
  return text === 'null' || ORIGIN.test(text);
}

/**
 * The `cors-allow` property: comma-separated origins, blanks removed (as the original does);
 * origins that are not `scheme://host[:port]` are returned apart so the caller can warn about them.
 */
export function parseCorsAllow(text: string | undefined): { origins: string[]; invalid: string[] } {
  const items = (text ?? '').split(',').map((s) => s.replace(/\s/g, '')).filter((s) => s !== '');
  return { origins: items.filter(isValidOrigin), invalid: items.filter((s) => !isValidOrigin(s)) };
}

/**
 * `cors-rules` from a configuration file: a list of rules (YAML, JSON), or the XML shape
 * `<cors-rules><cors-rule …/>…</cors-rules>`, which reads as `{ cors-rule: rule | rule[] }`.
 */
export function readCorsRules(value: unknown, where: string): CorsRuleConfig[] {
  const list = isMapping(value) && Object.keys(value).every((k) => k === 'cors-rule') ? value['cors-rule'] ?? [] : value;
  const rules = Array.isArray(list) ? list : isMapping(list) ? [list] : undefined;
  if (!rules) throw new ConfigError(`${where}: cors-rules must be a list of rules`);
  const parsed = rules.map((r, i) => readRule(r, `${where}: cors-rules[${i}]`));
  const seen = new Set<string>();
  for (const r of parsed) {
    if (seen.has(r.name)) throw new ConfigError(`${where}: cors-rules: the name '${r.name}' is used twice`);
    seen.add(r.name);
  }
  return parsed;
}

function readRule(raw: unknown, where: string): CorsRuleConfig {
  if (!isMapping(raw)) throw new ConfigError(`${where}: a rule must be a mapping of name, allowed-origins, allowed-methods, …`);
  const unknown = Object.keys(raw).find((k) => !RULE_KEYS.has(k));
  const name = raw.name === undefined ? '' : String(raw.name).trim();
  if (!name) throw new ConfigError(`${where}: 'name' is required`);
  const at = `${where} ('${name}')`;
  if (unknown !== undefined) throw new ConfigError(`${at}: unknown attribute '${unknown}' (expected ${[...RULE_KEYS].join(', ')})`);
  const rule: CorsRuleConfig = {
    name,
    allowCredentials: readBoolean(raw['allow-credentials'], `${at}: allow-credentials`),
    allowedOrigins: readList(raw['allowed-origins'], `${at}: allowed-origins`, true, (o) => o === '*' || isValidOrigin(o),
      'is not an origin (scheme://host[:port], no path or trailing slash) or *'),
    allowedMethods: readList(raw['allowed-methods'], `${at}: allowed-methods`, true, (m) => TOKEN.test(m), 'is not a method name').map((m) => m.toUpperCase()),
    allowedHeaders: readList(raw['allowed-headers'], `${at}: allowed-headers`, false, (h) => TOKEN.test(h), 'is not a header name'),
    exposeHeaders: readList(raw['expose-headers'], `${at}: expose-headers`, false, (h) => TOKEN.test(h), 'is not a header name'),
  };
  if (raw['max-age-seconds'] !== undefined) rule.maxAgeSeconds = readSeconds(raw['max-age-seconds'], `${at}: max-age-seconds`);
  return rule;
}

/** A comma-separated string or a list of strings (YAML/JSON arrays). */
function readList(value: unknown, what: string, required: boolean, valid: (s: string) => boolean, problem: string): string[] {
  if (value === undefined || value === null) {
    if (required) throw new ConfigError(`${what} is required`);
    return [];
  }
  const parts = Array.isArray(value) ? value.map(String) : typeof value === 'object' ? undefined : String(value).split(',');
  if (!parts) throw new ConfigError(`${what}: expected a comma-separated list`);
  const items = parts.map((s) => s.trim()).filter((s) => s !== '');
  if (required && items.length === 0) throw new ConfigError(`${what} must not be empty`);
  const bad = items.find((s) => !valid(s));
  if (bad !== undefined) throw new ConfigError(`${what}: '${bad}' ${problem}`);
  return items;
}

function readBoolean(value: unknown, what: string): boolean {
  if (value === undefined) return false;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new ConfigError(`${what}: '${String(value)}' must be true or false`);
}

function readSeconds(value: unknown, what: string): number {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new ConfigError(`${what}: '${String(value)}' must be a whole number of seconds (0 or more)`);
  return n;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
