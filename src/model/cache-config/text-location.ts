/** 1-based [line, column] in the submitted text; [1,1] when the spot cannot be found. */
export type TextLocation = readonly [number, number];

export const START: TextLocation = [1, 1];

/** Offsets → [line, column] in O(log lines) each, after one linear pass over the text. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  locationOf(offset: number): TextLocation {
    if (offset < 0) return START;
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return [lo + 1, offset - this.starts[lo] + 1];
  }
}

/** A key of a JSON or YAML document and the offset where its text starts. */
export interface KeyOffset {
  key: string;
  offset: number;
}

/**
 * Finds keys of a JSON or YAML document in reading order: each lookup takes the first occurrence
 * after the previous match, so a key repeated at several levels resolves to the occurrence being
 * read. The keys come from one linear scan of the text; each lookup is amortised O(1).
 */
export class KeyLocator {
  private cursor = 0;
  private readonly byKey = new Map<string, { positions: number[]; next: number }>();

  constructor(private readonly keys: readonly KeyOffset[], private readonly lines: LineIndex) {
    keys.forEach(({ key }, i) => {
      const entry = this.byKey.get(key);
      if (entry) entry.positions.push(i);
      else this.byKey.set(key, { positions: [i], next: 0 });
    });
  }

  next(key: string): TextLocation {
    const entry = this.byKey.get(key);
    if (!entry) return START;
    // the cursor only moves forward, so each key's pointer only moves forward: linear overall
    while (entry.next < entry.positions.length && entry.positions[entry.next] < this.cursor) entry.next++;
    if (entry.next === entry.positions.length) return START;
    const index = entry.positions[entry.next];
    this.cursor = index + 1;
    return this.lines.locationOf(this.keys[index].offset);
  }
}
