import { ConfigError } from './server-config-error';

/** One logger as the configuration file sets it at start; the API can change it later (docs/configuration.md, Logs). */
export interface LoggerConfig {
  name: string;
  /** A log4j level name in upper case. */
  level?: string;
  appenders?: string[];
}

const LEVEL_NAMES = ['OFF', 'FATAL', 'ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE', 'ALL'];
const APPENDER_NAMES = ['STDOUT', 'JSON-FILE'];

/**
 * `loggers` of the server configuration: a list of mappings with a `name` and a `level` and/or
 * `appenders` (a list, or names separated by commas), as `PUT /rest/v2/logging/loggers/{name}`
 * takes them; in XML `<loggers><logger name="…" level="…"/>…</loggers>`. The root logger is `''`.
 */
export function parseLoggers(value: unknown, where: string): LoggerConfig[] {
  const fail = (why: string): never => { throw new ConfigError(`${where}: loggers: ${why}`); };
  // XML gives { logger: {…} } for one element, { logger: [{…}, …] } for several and {} for none
  const list = isMapping(value) && Object.keys(value).every((k) => k === 'logger') ? (value.logger === undefined ? [] : [value.logger].flat()) : value;
  if (!Array.isArray(list)) return fail('expected a list of loggers, each with a name and a level (e.g. "loggers: [{name: org.infinispan.REST_ACCESS_LOG, level: TRACE}]")');
  return list.map((item): LoggerConfig => {
    if (!isMapping(item)) return fail(`expected a mapping with a name, got ${JSON.stringify(item)}`);
    const unknown = Object.keys(item).find((k) => !['name', 'level', 'appenders'].includes(k));
    if (unknown !== undefined) return fail(`unknown setting '${unknown}' of a logger (name, level, appenders)`);
    if (typeof item.name !== 'string') return fail('every logger needs a name (\'\' for the root logger)');
    if (item.level === undefined && item.appenders === undefined) return fail(`logger '${item.name}' needs a level or appenders`);
    const out: LoggerConfig = { name: item.name };
    if (item.level !== undefined) {
      const level = String(item.level).toUpperCase();
      if (!LEVEL_NAMES.includes(level)) return fail(`logger '${item.name}': level '${String(item.level)}' must be one of ${LEVEL_NAMES.join(', ')}`);
      out.level = level;
    }
    if (item.appenders !== undefined) {
      const names = (Array.isArray(item.appenders) ? item.appenders.map(String) : String(item.appenders).split(',')).map((a) => a.trim()).filter(Boolean);
      const bad = names.find((a) => !APPENDER_NAMES.includes(a));
      if (bad !== undefined) return fail(`logger '${item.name}': unknown appender '${bad}' (${APPENDER_NAMES.join(', ')})`);
      out.appenders = names;
    }
    return out;
  });
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
