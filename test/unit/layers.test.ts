import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The layer table of docs/architecture.md ("Layers"), kept true: each layer (the first folder under
 * src/, or the file for main.ts and container.ts) and the layers it may import. An import that
 * runs back up, or a cycle of files, fails here before it reaches review.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  cli: ['main', 'container', 'http', 'services', 'grid', 'store', 'model', 'config', 'util', 'errors'],
  main: ['container', 'http', 'services', 'grid', 'store', 'model', 'config', 'util', 'errors'],
  container: ['services', 'grid', 'store', 'model', 'config', 'util', 'errors'],
  http: ['services', 'model', 'config', 'util', 'errors'],
  services: ['grid', 'store', 'model', 'config', 'util', 'errors'],
  grid: ['store', 'model', 'config', 'util', 'errors'],
  store: ['model', 'config', 'util', 'errors'],
  model: ['util', 'errors'],
  config: ['util', 'errors'],
  util: ['errors'],
  errors: [],
};

/**
 * Modules a layer keeps to itself: `services/cache-view.ts` turns the views handlers hold back into
 * the engine's handles (docs/architecture.md, "What handlers get"); the other layers see the
 * `CacheView` type only, through `services/index.ts`.
 */
const OWN_MODULES: Record<string, string> = {
  'services/cache-view.ts': 'services',
};

const SRC = resolve(__dirname, '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []);
}

function layerOf(file: string): string {
  const [first] = relative(SRC, file).split('/');
  return first.replace(/\.ts$/, '');
}

/** The src/ files a file imports: static imports and re-exports, `import()`, `require()`, type-only ones included. */
function importsOf(file: string, known: Set<string>): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name))
    .map((path) => [`${path}.ts`, join(path, 'index.ts')].find((p) => known.has(p)) ?? path);
}

/** Every cycle of the import graph, as its files (Tarjan's strongly connected components). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('layers: what may import what (docs/architecture.md, Layers)', () => {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, importsOf(f, known)]));

  it('reads the imports of every source file', () => {
    expect(files.length).to.be.above(100);
    expect(graph.get(join(SRC, 'main.ts'))).to.include(join(SRC, 'container.ts'));
  });

  it('has every file in a known layer', () => {
    expect(files.map(layerOf).filter((l) => !(l in MAY_IMPORT))).to.deep.equal([]);
  });

  it('imports only from the same layer or the layers below it', () => {
    const wrong = [...graph].flatMap(([file, targets]) => targets
      .filter((t) => layerOf(t) !== layerOf(file) && !MAY_IMPORT[layerOf(file)].includes(layerOf(t)))
      .map((t) => `${relative(SRC, file)} → ${relative(SRC, t)}`));
    expect(wrong).to.deep.equal([]);
  });

  it('imports a layer\'s own modules only from within that layer', () => {
    const wrong = [...graph].flatMap(([file, targets]) => targets
      .filter((t) => { const owner = OWN_MODULES[relative(SRC, t)]; return owner !== undefined && owner !== layerOf(file); })
      .map((t) => `${relative(SRC, file)} → ${relative(SRC, t)}`));
    expect(Object.keys(OWN_MODULES).filter((m) => !known.has(join(SRC, m)))).to.deep.equal([]);
    expect(wrong).to.deep.equal([]);
  });

  it('has no import cycle between files (type-only imports count)', () => {
    expect(cycles(graph).map((c) => c.map((f) => relative(SRC, f)).sort())).to.deep.equal([]);
  });
});
