import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// Comments and docs cite the behaviour reference as `docs/reference/<file>.md#<id>`
// (docs/reference/README.md#how-to-cite). An id that is renamed or removed breaks those citations
// silently; this test finds every citation and checks that its id is still there.

const ROOT = join(__dirname, '..', '..', '..', '..');
const REFERENCE = join(ROOT, 'docs', 'reference');
const ID = /<a id="([^"]+)"><\/a>/g;

function read(path: string): string {
  return readFileSync(path, 'utf8');
}

/** The explicit ids of one reference file, in order. */
function idsOf(file: string): string[] {
  return [...read(join(REFERENCE, file)).matchAll(ID)].map((m) => m[1]!);
}

function referenceFiles(): string[] {
  return readdirSync(REFERENCE).filter((f) => f.endsWith('.md')).sort();
}

/** Every text file under `dir` (src, test, docs), skipping nothing but binary-looking names. */
function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (/\.(ts|js|md|tsv|json|yaml|yml|sql)$/.test(name)) yield path;
  }
}

/** GitHub's heading anchors, for links into grid's other docs. */
function headingSlugs(path: string): Set<string> {
  const text = read(path).replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const out = new Set<string>([...text.matchAll(ID)].map((m) => m[1]!));
  for (const [, heading] of text.matchAll(/^#{1,6} (.*)$/gm)) {
    const base = heading!.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-');
    const n = seen.get(base);
    seen.set(base, n === undefined ? 0 : n + 1);
    out.add(n === undefined ? base : `${base}-${n + 1}`);
  }
  return out;
}

/** What a link may point at: explicit ids in the reference (never its heading slugs), heading slugs elsewhere. */
function anchorsOf(path: string): Set<string> {
  return relative(REFERENCE, path).startsWith('..') ? headingSlugs(path) : new Set([...read(path).matchAll(ID)].map((m) => m[1]!));
}

describe('docs/reference: the behaviour reference and its citations', () => {
  it('gives every section a unique, well-formed id on the line before its heading', () => {
    for (const file of referenceFiles()) {
      const text = read(join(REFERENCE, file));
      const ids = idsOf(file);
      expect(ids, `${file} has ids`).to.not.be.empty;
      expect(new Set(ids).size, `${file}: duplicate ids ${ids.filter((id, i) => ids.indexOf(id) !== i).join(', ')}`).to.equal(ids.length);
      for (const m of text.matchAll(/<a id="([^"]+)"><\/a>\n(.*)/g)) {
        expect(m[1], `${file}: id format`).to.match(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(m[2], `${file}#${m[1]} precedes a heading`).to.match(/^#{1,6} /);
      }
    }
  });

  it('resolves every docs/reference/<file>.md#<id> cited in src, test, docs and README.md', () => {
    // docs/*.md link it relatively: `[…](reference/<file>.md#<id>)`
    const ids = new Map(referenceFiles().map((f) => [f, new Set(idsOf(f))]));
    const broken: string[] = [];
    let citations = 0;
    const sources = [...walk(join(ROOT, 'src')), ...walk(join(ROOT, 'test')), ...walk(join(ROOT, 'docs')), join(ROOT, 'README.md')];
    for (const path of sources) {
      const text = read(path);
      for (const m of text.matchAll(/(?:docs\/|\]\()reference\/([\w.-]+\.md)(?:#([\w-]+))?/g)) {
        citations++;
        const [file, id] = [m[1]!, m[2]];
        if (!ids.has(file)) broken.push(`${relative(ROOT, path)}: ${m[0]} (no such file)`);
        else if (id !== undefined && !ids.get(file)!.has(id)) broken.push(`${relative(ROOT, path)}: ${m[0]} (no such id)`);
      }
    }
    expect(citations, 'citations found').to.be.greaterThan(0);
    expect(broken, 'broken citations').to.deep.equal([]);
  });

  it('resolves the links between reference pages and into the other docs', () => {
    const broken: string[] = [];
    for (const file of referenceFiles()) {
      const prose = read(join(REFERENCE, file)).replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const full = path === '' ? join(REFERENCE, file) : join(REFERENCE, path);
        if (!existsSync(full)) { broken.push(`${file}: ${target} (no such file)`); continue; }
        if (anchor !== undefined && !anchorsOf(full).has(anchor)) broken.push(`${file}: ${target} (no such anchor)`);
      }
    }
    expect(broken).to.deep.equal([]);
  });
});
