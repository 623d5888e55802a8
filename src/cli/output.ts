/** How commands print: names a line, objects as indented JSON, rows as a table on a terminal. */

export function printLines(items: readonly unknown[]): void {
  if (items.length) process.stdout.write(items.map((i) => (typeof i === 'string' ? i : JSON.stringify(i))).join('\n') + '\n');
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function printText(text: string): void {
  process.stdout.write(text.endsWith('\n') || text === '' ? text : text + '\n');
}

/** Whether rows go out as a table: asked with --format, else when stdout is a terminal. */
export function wantsTable(format: string | undefined): boolean {
  return format === undefined ? process.stdout.isTTY === true : format === 'table';
}

/** Rows as aligned columns, a header and a rule; cells are strings as they are, other values as JSON on one line. */
export function formatTable(rows: ReadonlyArray<Record<string, unknown>>): string {
  const columns: string[] = [];
  for (const row of rows) for (const name of Object.keys(row)) if (!columns.includes(name)) columns.push(name);
  const cell = (v: unknown) => (v === undefined ? '' : (typeof v === 'string' ? v : JSON.stringify(v)).replace(/[\r\n\t]/g, ' '));
  const cells = rows.map((row) => columns.map((c) => cell(row[c])));
  const widths = columns.map((c, i) => Math.min(60, Math.max(c.length, ...cells.map((r) => r[i].length))));
  const line = (values: string[]) => values.map((v, i) => (v.length > widths[i] ? v.slice(0, widths[i] - 1) + '…' : v.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(columns), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n') + '\n';
}
