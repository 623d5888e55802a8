import { IllegalArgumentValueError } from '../errors';
import type { GridContext } from './route-spec';

/** Last value of a query parameter, as the original reads single-valued parameters. */
export function query(ctx: GridContext, name: string): string | undefined {
  const v = ctx.query[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** Every value of a repeatable parameter (`role`, `permission`, `appender`, `server`), in order. */
export function queryAll(ctx: GridContext, name: string): string[] {
  const v = ctx.query[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

export function isTrue(v: string | undefined): boolean {
  return v !== undefined && v.toLowerCase() === 'true';
}

/** An integer parameter; absent or empty gives the default, anything else non-numeric is a 400 ISPN012023. */
export function intParam(ctx: GridContext, name: string, fallback: number): number {
  const v = query(ctx, name);
  if (v === undefined || v === '') return fallback;
  if (!/^-?\d+$/.test(v)) throw new IllegalArgumentValueError(name, v);
  return Number(v);
}
