import { UnknownAliasError, UnknownPropertyError } from '../../errors';
import type { FieldRef } from './analyzed-query';
import type { PathExpr } from './ast';
import type { EntityModel, PropertyModel } from './entity-model';

/** The names a query can use: the entity's alias and the aliases its joins introduce. */
export class Scope {
  private readonly joins = new Map<string, string[]>();

  constructor(readonly entity: EntityModel, readonly alias: string | undefined) {}

  /** `JOIN p.phoneNumbers ph`: `ph.number` then means `phoneNumbers.number` (docs/reference/query.md#grammar-statements). */
  addJoin(path: PathExpr, alias: string | undefined): void {
    const resolved = this.resolve(path);
    if (!resolved) throw new UnknownAliasError(path.segments[0]);
    if (alias) this.joins.set(alias, resolved.path);
  }

  /** True when the path is the entity's alias alone (`select p`, `count(p)`). */
  isAlias(path: PathExpr): boolean {
    return path.segments.length === 1 && path.segments[0] === this.alias;
  }

  /**
   * Resolves a path written with or without the alias (`p.name` ≡ `name`). An unknown first
   * segment of a longer path is an unknown alias (ISPN028502), else an unknown property (ISPN028501).
   * Returns undefined for the alias alone.
   */
  resolve(path: PathExpr): FieldRef | undefined {
    const [first, ...rest] = path.segments;
    let names: string[];
    if (first === this.alias) {
      if (rest.length === 0) return undefined;
      names = rest;
    } else if (this.joins.has(first)) {
      names = [...this.joins.get(first)!, ...rest];
    } else if (this.entity.properties.has(first)) {
      names = path.segments;
    } else if (rest.length > 0) {
      throw new UnknownAliasError(first);
    } else {
      throw new UnknownPropertyError(this.entity.name, first);
    }
    return this.walk(names);
  }

  private walk(names: string[]): FieldRef {
    const props: PropertyModel[] = [];
    let type: EntityModel | undefined = this.entity;
    for (const name of names) {
      const p: PropertyModel | undefined = type?.properties.get(name);
      if (!p) throw new UnknownPropertyError(this.entity.name, name);
      props.push(p);
      type = p.message?.();
    }
    return { path: names, key: names.join('.'), props, leaf: props[props.length - 1], multiValued: props.some((p) => p.repeated) };
  }
}
