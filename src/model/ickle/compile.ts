import type { AnalyzedQuery } from './analyzed-query';
import { analyzeStatement, type AnalyzeOptions } from './analyze';
import { parseIckle } from './parse';

export type { AnalyzeOptions } from './analyze';

/** Parses and checks an Ickle query: the one entry point of the pure query layer. */
export function compileIckle(text: string, opts: AnalyzeOptions): AnalyzedQuery {
  return analyzeStatement(parseIckle(text), text, opts);
}
