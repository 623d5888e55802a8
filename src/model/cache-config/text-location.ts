/** 1-based [line, column] in the submitted text; [1,1] when the spot cannot be found. */
export type TextLocation = readonly [number, number];

export const START: TextLocation = [1, 1];

export function locationOf(text: string, offset: number): TextLocation {
  if (offset < 0) return START;
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return [line, offset - lineStart + 1];
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Finds keys of a JSON or YAML document in reading order: each lookup starts where the previous
 * one matched, so a key repeated at several levels resolves to the occurrence being read.
 */
export class KeyLocator {
  private cursor = 0;

  constructor(private readonly text: string, private readonly format: 'json' | 'yaml') {}

  next(key: string): TextLocation {
    const pattern = this.patternFor(key);
    pattern.lastIndex = this.cursor;
    const match = pattern.exec(this.text);
    if (!match) return START;
    const offset = match.index + match[0].indexOf(match[1]);
    this.cursor = offset + match[1].length;
    return locationOf(this.text, offset);
  }

  private patternFor(key: string): RegExp {
    const quoted = escapeRegExp(JSON.stringify(key));
    if (this.format === 'json') return new RegExp(`(${quoted})\\s*:`, 'g');
    const plain = escapeRegExp(key);
    return new RegExp(`(?:^|[\\s{,])(${quoted}|'${plain}'|${plain})\\s*:`, 'gm');
  }
}
