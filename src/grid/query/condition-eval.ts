import type { Condition, Scalar, Target } from '../../model/ickle/analyzed-query';
import { compareScalars } from './compare';
import { compileTextMatch } from './text-match';

export type Predicate<S> = (subject: S) => boolean;

/**
 * Compiles a condition once into a predicate over a subject (a decoded entity, or a grouping row):
 * a path with several values matches when any value does; a NOT matches every subject its operand
 * does not, those without the field included, as the original's index does (`-x #*:*`).
 */
export function compileCondition<S>(c: Condition, access: (t: Target) => (s: S) => Scalar[]): Predicate<S> {
  switch (c.kind) {
    case 'true': return () => true;
    case 'false': return () => false;
    case 'and': {
      const items = c.items.map((i) => compileCondition(i, access));
      return (s) => items.every((p) => p(s));
    }
    case 'or': {
      const items = c.items.map((i) => compileCondition(i, access));
      return (s) => items.some((p) => p(s));
    }
    case 'not': {
      const item = compileCondition(c.item, access);
      return (s) => !item(s);
    }
    case 'compare': {
      const get = access(c.target);
      const test = comparison(c.op, c.value);
      return (s) => get(s).some(test);
    }
    case 'in': {
      const get = access(c.target);
      const values = c.values;
      return (s) => get(s).some((v) => values.some((x) => compareScalars(v, x) === 0));
    }
    case 'like': {
      const get = access(c.target);
      const matches = c.matches;
      return (s) => get(s).some((v) => matches(String(v)));
    }
    case 'isNull': {
      const get = access(c.target);
      return (s) => get(s).length === 0;
    }
    case 'text': {
      const get = access(c.field);
      const test = compileTextMatch(c.field, c.match);
      return (s) => get(s).some(test);
    }
  }
}

function comparison(op: '=' | '<' | '<=' | '>' | '>=', value: Scalar): (v: Scalar) => boolean {
  switch (op) {
    case '=': return typeof value === 'number' ? (v) => v === value : (v) => compareScalars(v, value) === 0;
    case '<': return (v) => compareScalars(v, value) < 0;
    case '<=': return (v) => compareScalars(v, value) <= 0;
    case '>': return (v) => compareScalars(v, value) > 0;
    case '>=': return (v) => compareScalars(v, value) >= 0;
  }
}
