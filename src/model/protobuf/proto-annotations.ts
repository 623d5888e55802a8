/**
 * protostream annotations in schema comments (docs/reference/query.md#annotations): `@Name` or `@Name(attr=value, …)`
 * where a value is a boolean, number, "string", bare or qualified name (`YES`, `Store.YES`), a nested
 * annotation (`analyzer=@Analyzer(definition="x")`) or a `{…}` list (`@Fields({@Field, @Field})`).
 * Text around annotations is documentation; a malformed annotation is skipped, not an error.
 */
export type AnnotationValue = string | number | boolean | Annotation | AnnotationValue[];

export interface Annotation {
  name: string;
  attributes: Record<string, AnnotationValue>;
}

export function parseAnnotations(comment: string | null | undefined): Annotation[] {
  if (!comment) return [];
  const out: Annotation[] = [];
  for (let i = comment.indexOf('@'); i >= 0; i = comment.indexOf('@', i + 1)) {
    if (i > 0 && !/[\s*({,]/.test(comment[i - 1])) continue; // an e-mail address, not an annotation
    const reader = new Reader(comment, i);
    const a = reader.annotation();
    if (a) {
      out.push(a);
      i = reader.at - 1;
    }
  }
  return out;
}

/** The first annotation of one of `names`, in the order they are listed. */
export function findAnnotation(annotations: Annotation[], ...names: string[]): Annotation | undefined {
  for (const n of names) {
    const a = annotations.find((x) => x.name === n);
    if (a) return a;
  }
  return undefined;
}

/** A boolean attribute; names like `Store.YES` / `Analyze.NO` count as true / false. */
export function boolAttr(a: Annotation, name: string, fallback: boolean): boolean {
  const v = a.attributes[name];
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const last = v.split('.').pop()!.toUpperCase();
    if (last === 'YES' || last === 'TRUE') return true;
    if (last === 'NO' || last === 'FALSE') return false;
  }
  return fallback;
}

export function stringAttr(a: Annotation, name: string): string | undefined {
  const v = a.attributes[name];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

class Reader {
  constructor(private readonly text: string, public at: number) {}

  annotation(): Annotation | undefined {
    if (this.text[this.at] !== '@') return undefined;
    this.at++;
    const name = this.name();
    if (!name) return undefined;
    const attributes: Record<string, AnnotationValue> = {};
    const save = this.at;
    this.space();
    if (this.text[this.at] !== '(') {
      this.at = save;
      return { name, attributes };
    }
    this.at++;
    this.space();
    if (this.text[this.at] === ')') {
      this.at++;
      return { name, attributes };
    }
    for (;;) {
      this.space();
      const start = this.at;
      const key = this.name();
      this.space();
      if (key && this.text[this.at] === '=') {
        this.at++;
        const v = this.value();
        if (v === undefined) return undefined;
        attributes[key] = v;
      } else {
        this.at = start;
        const v = this.value();
        if (v === undefined) return undefined;
        attributes.value = v;
      }
      this.space();
      const c = this.text[this.at++];
      if (c === ')') return { name, attributes };
      if (c !== ',') return undefined;
    }
  }

  private value(): AnnotationValue | undefined {
    this.space();
    const c = this.text[this.at];
    if (c === '"') {
      const end = this.text.indexOf('"', this.at + 1);
      if (end < 0) return undefined;
      const s = this.text.slice(this.at + 1, end);
      this.at = end + 1;
      return s;
    }
    if (c === '@') return this.annotation();
    if (c === '{') {
      this.at++;
      const items: AnnotationValue[] = [];
      for (;;) {
        this.space();
        if (this.text[this.at] === '}') {
          this.at++;
          return items;
        }
        const v = this.value();
        if (v === undefined) return undefined;
        items.push(v);
        this.space();
        if (this.text[this.at] === ',') this.at++;
      }
    }
    const m = /^-?\d+(\.\d+)?/.exec(this.text.slice(this.at, this.at + 32));
    if (m) {
      this.at += m[0].length;
      return Number(m[0]);
    }
    const name = this.name();
    if (!name) return undefined;
    if (name === 'true' || name === 'false') return name === 'true';
    return name;
  }

  /** An identifier, possibly qualified (`Store.YES`). */
  private name(): string | undefined {
    const m = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*/.exec(this.text.slice(this.at, this.at + 256));
    if (!m) return undefined;
    this.at += m[0].length;
    return m[0];
  }

  private space(): void {
    while (this.at < this.text.length && /[\s*]/.test(this.text[this.at])) this.at++;
  }
}
