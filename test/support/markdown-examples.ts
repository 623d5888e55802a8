import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Fence {
  file: string;
  /** 1-based line of the opening fence */
  line: number;
  /** the info string's first word: sh, yaml, … or '' */
  lang: string;
  body: string;
  /** the reason of a `<!-- reference-only: REASON -->` line right above the fence */
  referenceOnly: string | undefined;
}

export const SHELL = new Set(['sh', 'bash', 'shell']);
const MARKER = /^<!--\s*reference-only:\s*(.*?)\s*-->$/;

/** README.md and docs/*.md of the package at `root`. */
export function documentationFiles(root: string): string[] {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => join('docs', f))];
}

/** Every fenced block of a Markdown file (``` or ~~~, CommonMark's rules for closing). */
export function fencesOf(root: string, file: string): Fence[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]);
    if (!open) continue;
    const [, marks, lang] = open;
    let end = i + 1;
    while (end < lines.length && !new RegExp(`^ {0,3}${marks[0]}{${marks.length},}\\s*$`).test(lines[end])) end++;
    let above = i - 1;
    while (above >= 0 && lines[above].trim() === '') above--;
    const marker = above >= 0 ? MARKER.exec(lines[above].trim()) : null;
    fences.push({ file, line: i + 1, lang: lang.toLowerCase(), body: lines.slice(i + 1, end).join('\n'), referenceOnly: marker ? marker[1] : undefined });
    i = end;
  }
  return fences;
}

/** A line that a reader would type: a command of this project or of the tools its docs use. */
export function looksLikeCommand(body: string): boolean {
  return body.split('\n').some((l) => /^\s*(\$\s+)?(grid|bin\/grid|npx grid|npm|curl)\s/.test(l));
}

/** The inline code spans of a Markdown file that start with `grid ` (commands in tables and prose). */
export function inlineGridCommands(root: string, file: string): Array<{ file: string; line: number; text: string }> {
  const out: Array<{ file: string; line: number; text: string }> = [];
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  let inFence = false;
  lines.forEach((l, i) => {
    if (/^ {0,3}(`{3,}|~{3,})/.test(l)) inFence = !inFence;
    if (inFence) return;
    for (const m of l.matchAll(/(?<!`)`(grid [^`]+)`(?!`)/g)) out.push({ file, line: i + 1, text: m[1].replace(/\\\|/g, '|') });
  });
  return out;
}
