import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as errors from '../../../src/errors';
import { type ErrorDeclaration, GridError, QueryError } from '../../../src/errors';
import { reasonOf } from '../../../src/http/app';

/**
 * Every error the server answers with is declared as data (src/errors/define-error.ts), and
 * docs/reference/errors.md ("Error codes") lists each declaration: the catalogue a client programs
 * against. The table must be exactly the one the declarations make; a failure prints the rows to
 * add or correct and the codes to remove. After a deliberate change:
 * `GRID_UPDATE_GOLDEN=1 npx mocha dist/test/unit/errors/error-catalogue.test.js` rewrites the
 * table; review its diff in the commit.
 */
const DOC = resolve(__dirname, '../../../../docs/reference/errors.md');
const HEADER = '| code | status | ISPN id | body |\n|---|---|---|---|\n';

type Declaration = ErrorDeclaration<never[]>;
interface Declared { exportName: string; cls: abstract new (...args: never[]) => GridError; declaration: Declaration }

function declaredErrors(): Declared[] {
  return Object.entries(errors).flatMap(([exportName, value]) =>
    typeof value === 'function' && 'declaration' in value
      ? [{ exportName, cls: value as Declared['cls'], declaration: value.declaration as Declaration }]
      : []);
}

/** The text with every argument `…`, or why it cannot be shown that way. */
function textWithHoles(d: Declaration): string {
  const text = d.text as ((...args: string[]) => string) | undefined;
  return text ? text(...Array<string>(text.length).fill('…')) : '';
}

function codeSpan(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function bodyOf(d: Declaration): string {
  const named = d.headers && Object.entries((d.headers as (...args: string[]) => Record<string, unknown>)('…', '…'));
  const headers = named ? `; header ${named.map(([name, value]) => codeSpan(`${name}: ${String(value)}`)).join(', ')}` : '';
  if (d.summary) return d.summary + headers;
  const text = textWithHoles(d);
  if (text !== '') return codeSpan(text) + headers;
  const reason = reasonOf(new GridError(Number(d.status), d.code, ''));
  return (reason ? `${codeSpan(reason)} (the original: no body)` : '(no body)') + headers;
}

function rowOf({ declaration: d }: Declared): string {
  const status = typeof d.status === 'number' ? String(d.status) : d.status.join(', ');
  return `| \`${d.code}\` | ${status} | ${d.ispn ?? ''} | ${bodyOf(d).replace(/\|/g, '\\|')} |`;
}

/** The "Error codes" section of the doc: its text, and where its table starts and ends. */
function documentedTable(doc: string): { start: number; end: number } {
  const start = doc.indexOf(HEADER, doc.indexOf('<a id="error-codes"></a>'));
  expect(start, `docs/reference/errors.md#error-codes has the table header ${HEADER}`).to.be.above(0);
  const after = doc.slice(start + HEADER.length).search(/^(?!\|)/m);
  return { start, end: after < 0 ? doc.length : start + HEADER.length + after };
}

describe('error catalogue: every declared error is in docs/reference/errors.md#error-codes', () => {
  const declared = declaredErrors();

  it('finds the declarations among the exports of src/errors, each under its class name', () => {
    expect(declared.length).to.be.above(100);
    expect(declared.filter((e) => e.cls.name !== e.exportName).map((e) => e.exportName)).to.deep.equal([]);
    const cacheNotFound = declared.find((e) => e.exportName === 'CacheNotFoundError')!.declaration;
    expect(cacheNotFound).to.include({ code: 'CACHE_NOT_FOUND', status: 404, ispn: 'ISPN012010' });
  });

  it('gives every error class a declaration, and every declaration its own code', () => {
    const undeclared = Object.entries(errors).filter(([, v]) =>
      typeof v === 'function' && v.prototype instanceof GridError && !('declaration' in v)
      && !declared.some((e) => e.cls.prototype instanceof v));   // a family (QueryError) is only the base of declared ones
    expect(undeclared.map(([name]) => name), 'GridError subclasses that are not declared').to.deep.equal([]);
    const codes = declared.map((e) => e.declaration.code);
    expect(codes.filter((c, i) => codes.indexOf(c) !== i), 'codes declared twice').to.deep.equal([]);
  });

  it('shows each text with … for its parts, else says in a summary what the body holds', () => {
    const unshown = declared.filter(({ declaration: d }) => {
      if (d.summary) return false;
      try {
        const text = textWithHoles(d);
        return text === '…' || text.includes('undefined') || /ISPN\d{6}/.test(text);
      } catch {
        return true;
      }
    });
    expect(unshown.map((e) => e.exportName), 'declarations whose text needs a summary (or whose ISPN id belongs in `ispn`)').to.deep.equal([]);
  });

  it('answers every query error 400, the status the search endpoints send them with', () => {
    const other = declared.filter((e) => e.cls.prototype instanceof QueryError && e.declaration.status !== 400);
    expect(other.map((e) => e.exportName)).to.deep.equal([]);
  });

  it('lists every code with its status, ISPN id and body, and no code that is gone', () => {
    const table = HEADER + [...declared].sort((a, b) => a.declaration.code.localeCompare(b.declaration.code)).map(rowOf).join('\n') + '\n';
    let doc = readFileSync(DOC, 'utf8');
    let { start, end } = documentedTable(doc);
    if (process.env.GRID_UPDATE_GOLDEN) {
      doc = doc.slice(0, start) + table + doc.slice(end);
      writeFileSync(DOC, doc);
      ({ start, end } = documentedTable(doc));
    }
    const written = doc.slice(start, end);
    const rows = written.split('\n');
    const wanted = table.split('\n');
    const missing = wanted.filter((row) => !rows.includes(row));
    const codes = new Set(declared.map((e) => e.declaration.code));
    const gone = rows.map((row) => /^\| `([A-Z0-9_]+)`/.exec(row)?.[1]).filter((code) => code !== undefined && !codes.has(code));
    if (missing.length + gone.length) {
      console.log(`      rows to add or correct in docs/reference/errors.md (or run with GRID_UPDATE_GOLDEN=1):\n${missing.join('\n')}\n      rows to remove: ${gone.join(', ')}`);
    }
    expect({ missing, gone }, 'rows to add or correct, and rows to remove').to.deep.equal({ missing: [], gone: [] });
    expect(written, 'the table, in the order of the codes').to.equal(table);
  });
});
