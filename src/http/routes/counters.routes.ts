import { IllegalArgumentValueError, InvalidCounterConfigurationError, MissingArgumentError } from '../../errors';
import { LONG_MAX, LONG_MIN } from '../../model/counter-config';
import type { Services } from '../../services';
import type { UpdateOutcome } from '../../services/counter.service';
import { negotiateAmong } from '../negotiate';
import { headerText } from '../request-headers';
import { isTrue, query } from '../params';
import { readJsonText } from '../json-body';
import { noContent, sendJson, sendStatus, sendText } from '../respond';
import { DONE, json, MEDIA, OK_EMPTY, param, QUERY_PARAMS, text, typed } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';

const VALUE_TYPES = { 'application/json': 'application/json', 'text/plain': 'text/plain' };

const NO_COUNTER = 'No such counter';
const BAD_LONG = 'Missing, repeated or not a 64-bit integer';
/** Weak counters answer 204, strong ones 200 with the new value; a bound reached is a 500 (ISPN029501). */
const UPDATED = { 200: json('The new value (strong counters)'), 204: 'Done (weak counters)', 404: NO_COUNTER, 500: 'A bound was reached' };
const long = (name: string) => param(name, 'A 64-bit integer', { type: 'integer', required: true });

/** Counters: `/rest/v2/counters…` (docs/reference/management-plane.md#counters). */
export function counterRoutes(): RouteSpec[] {
  const c = '/rest/v2/counters/:counter';
  const name = (ctx: GridContext) => ctx.params.counter;
  return [
    { method: 'GET', path: '/rest/v2/counters', permission: 'READ', handle: (ctx, s) => sendJson(ctx, s.counters.names()),
      doc: { summary: 'Names of the counters', responses: { 200: json('JSON array of names') } } },
    { method: 'POST', path: c, permission: 'CREATE', handle: (ctx, s) => define(ctx, s),
      doc: { summary: 'Define a counter', body: [MEDIA.json], responses: { ...OK_EMPTY, 304: 'It exists already', 400: 'Invalid configuration', 404: 'No weak-counter or strong-counter element' } } },
    { method: 'DELETE', path: c, permission: 'CREATE', handle: async (ctx, s) => { await s.counters.remove(name(ctx)); sendStatus(ctx, 204); },
      doc: { summary: 'Remove a counter', responses: { ...DONE, 404: NO_COUNTER } } },
    { method: 'GET', path: c, permission: 'READ', handle: (ctx, s) => value(ctx, s),
      doc: { summary: 'The value, in the type Accept names (JSON or text)', responses: { 200: typed('The value', MEDIA.json, MEDIA.text), 404: NO_COUNTER, 406: 'Accept names neither JSON nor text' } } },
    { method: 'GET', path: `${c}/config`, permission: 'READ', handle: (ctx, s) => sendText(ctx, s.counters.config(name(ctx), isTrue(query(ctx, 'pretty'))), 'application/json'),
      doc: { summary: 'The counter configuration', query: [QUERY_PARAMS.pretty], responses: { 200: json('The configuration'), 404: NO_COUNTER } } },
    { method: 'POST', path: c, action: 'increment', permission: 'WRITE', handle: async (ctx, s) => answer(ctx, await s.counters.add(name(ctx), 1n)),
      doc: { summary: 'Add one', responses: UPDATED } },
    { method: 'POST', path: c, action: 'decrement', permission: 'WRITE', handle: async (ctx, s) => answer(ctx, await s.counters.add(name(ctx), -1n)),
      doc: { summary: 'Subtract one', responses: UPDATED } },
    { method: 'POST', path: c, action: 'add', permission: 'WRITE', handle: async (ctx, s) => answer(ctx, await s.counters.add(name(ctx), longParam(ctx, 'delta'))),
      doc: { summary: 'Add delta', query: [long('delta')], responses: { ...UPDATED, 400: BAD_LONG } } },
    { method: 'POST', path: c, action: 'reset', permission: 'WRITE', handle: async (ctx, s) => { await s.counters.reset(name(ctx)); noContent(ctx); },
      doc: { summary: 'Back to the initial value', responses: { ...DONE, 404: NO_COUNTER } } },
    {
      method: 'POST', path: c, action: 'compareAndSet', permission: 'WRITE',
      doc: { summary: 'Set update if the value is expect (strong counters)', query: [long('expect'), long('update')], responses: { 200: json('true or false'), 400: BAD_LONG, 404: NO_COUNTER, 500: 'A weak counter' } },
      handle: async (ctx, s) => sendJson(ctx, await s.counters.compareAndSet(name(ctx), longParam(ctx, 'expect'), longParam(ctx, 'update'))),
    },
    {
      method: 'POST', path: c, action: 'compareAndSwap', permission: 'WRITE',
      doc: { summary: 'Set update if the value is expect; answers the previous value (strong counters)', query: [long('expect'), long('update')], responses: { 200: json('The previous value'), 400: BAD_LONG, 404: NO_COUNTER, 500: 'A weak counter' } },
      handle: async (ctx, s) => sendLong(ctx, await s.counters.compareAndSwap(name(ctx), longParam(ctx, 'expect'), longParam(ctx, 'update')), 'application/json'),
    },
    {
      method: 'POST', path: c, action: 'getAndSet', permission: 'WRITE',
      doc: { summary: 'Set the value; answers the previous one (strong counters)', query: [long('value')], responses: { 200: text('The previous value'), 400: BAD_LONG, 404: NO_COUNTER, 500: 'A weak counter' } },
      handle: async (ctx, s) => sendLong(ctx, await s.counters.getAndSet(name(ctx), longParam(ctx, 'value')), 'text/plain'),
    },
  ];
}

async function define(ctx: GridContext, s: Services): Promise<void> {
  await s.counters.define(ctx.params.counter, await readJsonText(ctx, s, (reason) => new InvalidCounterConfigurationError(reason)));
  sendStatus(ctx, 200);
}

/** The contract wins over the original here: JSON (also without Accept) or text, others 406 (docs/reference/management-plane.md#counter-read-delete-list). */
async function value(ctx: GridContext, s: Services): Promise<void> {
  const type = negotiateAmong(headerText(ctx, 'accept'), VALUE_TYPES);
  const v = await s.counters.value(ctx.params.counter);
  ctx.set('Cache-Control', 'no-cache');
  sendLong(ctx, v, type);
}

/** WEAK answers 204, STRONG 200 with the new value. */
function answer(ctx: GridContext, outcome: UpdateOutcome): void {
  if (outcome.kind === 'WEAK') return noContent(ctx);
  sendLong(ctx, outcome.value, 'application/json');
}

function sendLong(ctx: GridContext, v: bigint, type: string): void {
  sendText(ctx, v.toString(), type);
}

/** Exactly one decimal 64-bit value (ISPN012040 when missing or repeated, ISPN012023 when not a number). */
function longParam(ctx: GridContext, name: string): bigint {
  const raw = ctx.query[name];
  if (raw === undefined || Array.isArray(raw)) throw new MissingArgumentError(name);
  if (!/^[+-]?\d+$/.test(raw)) throw new IllegalArgumentValueError(name, raw);
  const n = BigInt(raw);
  if (n < LONG_MIN || n > LONG_MAX) throw new IllegalArgumentValueError(name, raw);
  return n;
}
