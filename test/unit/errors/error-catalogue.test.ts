import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GridError } from '../../../src/errors';
import { reasonOf } from '../../../src/http/app';

/**
 * Every error the server answers with has a stable code, and docs/reference/errors.md ("Error
 * codes") lists each with its status: the catalogue a client programs against. This reads the
 * codes from src/errors/ (`super(status, 'CODE', text)`) and fails on a code the table lacks, a
 * row that says something else (status, class, text), or a row whose code no longer exists; a
 * failure prints the rows to write.
 */
const ROOT = resolve(__dirname, '../../../..');

/** `text`: the body's text, `…` for the parts that vary; undefined when the caller gives it all. */
interface Declared { code: string; status: string; className: string; text: string | undefined }

/** Bases whose subclasses pass only a code and a text: their status. */
const STATUS_OF_BASE: Record<string, string> = { QueryError: '400' };
/** Classes that take their code from the caller (`new BadRequestError(text, 'CODE')`): their status. */
const CODE_FROM_CALLER: Record<string, string> = { BadRequestError: '400', InvalidConfigurationError: '400' };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []);
}

/** A string or template literal's text, its `${…}` parts shown as `…`. */
function literalText(quote: string | undefined, text: string | undefined): string | undefined {
  return quote && text !== undefined ? text.replace(/\$\{[^}]*\}/g, '…') : undefined;
}

function declaredErrors(): Declared[] {
  const classes = sourceFiles(join(ROOT, 'src/errors')).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/export class (\w+) extends (\w+) \{([\s\S]*?)\n\}/g)]);
  const own = classes.flatMap(([, className, base, body]): Declared[] => {
    const full = /super\(\s*([^,'(]+?),\s*'([A-Z0-9_]+)'(?:,\s*(?:([`'])((?:\\.|(?!\3)[^\\])*)\3)?)?/.exec(body);
    if (full) return [{ code: full[2], status: full[1].trim(), className, text: literalText(full[3], full[4]) }];
    const short = /super\(\s*'([A-Z0-9_]+)'(?:,\s*(?:([`'])((?:\\.|(?!\2)[^\\])*)\2)?)?/.exec(body);
    if (short && STATUS_OF_BASE[base]) return [{ code: short[1], status: STATUS_OF_BASE[base], className, text: literalText(short[2], short[3]) }];
    if (!CODE_FROM_CALLER[className]) return [];
    // the codes its signature names (a default, or a union of literals)
    const signature = /constructor\(([^)]*)\)/.exec(body)?.[1] ?? '';
    return [...signature.matchAll(/'([A-Z][A-Z0-9_]+)'/g)].map(([, code]) => ({ code, status: CODE_FROM_CALLER[className], className, text: undefined }));
  });
  const fromCallers = sourceFiles(join(ROOT, 'src')).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/new (\w+)\([^;]*?'([A-Z][A-Z0-9_]+)'\)/g)]
      .filter(([, className]) => CODE_FROM_CALLER[className])
      .map(([, className, code]) => ({ code, status: CODE_FROM_CALLER[className], className, text: undefined })));
  const byCode = new Map<string, Declared>();
  for (const e of [...own, ...fromCallers]) if (!byCode.has(e.code)) byCode.set(e.code, e);
  return [...byCode.values()];
}

/** The body column: the text, or what the server sends when the error carries none (reasonOf). */
function bodyOf(e: Declared): string {
  if (e.text === undefined) return '(given where it is raised)';
  if (e.text !== '') return `\`${e.text.replace(/\|/g, '\\|')}\``;
  const reason = reasonOf(new GridError(Number(e.status), e.code, ''));
  return reason ? `\`${reason}\` (the original: no body)` : '(no body)';
}

/** The table's rows by code, each as written. */
function documentedRows(): Map<string, string> {
  const doc = readFileSync(join(ROOT, 'docs/reference/errors.md'), 'utf8');
  const section = doc.slice(doc.indexOf('<a id="error-codes"></a>'));
  return new Map([...section.matchAll(/^\| `([A-Z0-9_]+)` \|.*$/gm)].map(([row, code]) => [code, row]));
}

function rowOf(e: Declared): string {
  return `| \`${e.code}\` | ${e.status} | \`${e.className}\` | ${bodyOf(e)} |`;
}

describe('error catalogue: every error code is documented (docs/reference/errors.md#error-codes)', () => {
  const declared = declaredErrors();
  const documented = documentedRows();

  it('reads the codes of src/errors', () => {
    expect(declared.length).to.be.above(100);
    expect(declared.find((e) => e.code === 'CACHE_NOT_FOUND')).to.include({ status: '404', className: 'CacheNotFoundError' });
  });

  it('lists every code with its status, class and text, and no code that is gone', () => {
    const missing = declared.map(rowOf).filter((row, i) => documented.get(declared[i].code) !== row);
    const gone = [...documented.keys()].filter((code) => !declared.some((e) => e.code === code));
    if (missing.length + gone.length) console.log(`      rows to add or correct in docs/reference/errors.md:\n${missing.join('\n')}\n      rows to remove: ${gone.join(', ')}`);
    expect({ missing, gone }, 'rows to add or correct, and rows to remove').to.deep.equal({ missing: [], gone: [] });
  });
});
