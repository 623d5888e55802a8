import { parse, UsageError } from './args';
import { noCache } from './cache.command';
import { formatTable, printText, wantsTable } from './output';
import { CONNECTION_OPTIONS, connect, seg } from './rest-client';
import { USAGE } from './usage';

interface SearchAnswer {
  hit_count?: number;
  hit_count_exact?: boolean;
  hits?: Array<{ hit?: unknown }>;
}

/**
 * `grid query CACHE 'ICKLE'`: `POST ?action=search` (docs/query.md). A table on a terminal, the
 * server's JSON when piped (or as --format says).
 */
export async function runQuery(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    ...CONNECTION_OPTIONS, 'max-results': { type: 'string' }, offset: { type: 'string' }, format: { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(USAGE.query + '\n');
    return 0;
  }
  const [cache, query, ...extra] = positionals;
  if (!cache || query === undefined) throw new UsageError(`query needs a CACHE and an Ickle query, e.g. grid query books "from shop.Book where year > 1960"`);
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}' (quote the query: it is one argument)`);
  const format = values.format as string | undefined;
  if (format !== undefined && format !== 'table' && format !== 'json') throw new UsageError(`--format is table or json, not '${format}'`);
  const body: Record<string, unknown> = { query };
  for (const [flag, field] of [['max-results', 'max_results'], ['offset', 'offset']] as const) {
    const n = values[flag] as string | undefined;
    if (n === undefined) continue;
    if (!/^-?\d+$/.test(n)) throw new UsageError(`--${flag} must be a whole number, not '${n}'`);
    body[field] = Number(n);
  }
  const response = await connect(values).request('POST', `/v2/caches/${seg(cache)}`, {
    query: { action: 'search' },
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    explain: { 404: noCache(cache) },
  });
  const text = await response.text();
  if (!wantsTable(format)) {
    printText(text);
    return 0;
  }
  const answer = JSON.parse(text) as SearchAnswer;
  const rows = (answer.hits ?? []).map(({ hit }) => (hit !== null && typeof hit === 'object' && !Array.isArray(hit) ? hit as Record<string, unknown> : { value: hit }));
  if (rows.length) process.stdout.write(formatTable(rows));
  const total = answer.hit_count ?? rows.length;
  printText(`${rows.length} of ${answer.hit_count_exact === false ? 'at least ' : ''}${total} hit${total === 1 ? '' : 's'}`);
  return 0;
}
