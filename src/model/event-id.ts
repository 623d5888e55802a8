/**
 * The ids of a resumable event stream (docs/reference/management-plane.md#config-events): a number
 * (`42`, the SQLite engine's) or two joined by `-` (`1712345678901-0`, a Redis Stream entry's,
 * milliseconds then a sequence). Both read as a pair, a lone number being `n-0` as Redis reads it,
 * and order by the pair; each part fits in 64 bits unsigned, as Redis's do.
 */
export type EventId = string;

const ID = /^(\d{1,20})(?:-(\d{1,20}))?$/;
const MAX_PART = 2n ** 64n - 1n;

/** The id `text` names, written without leading zeros; undefined when it is not one. */
export function parseEventId(text: string): EventId | undefined {
  const m = ID.exec(text);
  if (!m) return undefined;
  const first = BigInt(m[1]);
  const second = m[2] === undefined ? undefined : BigInt(m[2]);
  if (first > MAX_PART || (second !== undefined && second > MAX_PART)) return undefined;
  return second === undefined ? String(first) : `${first}-${second}`;
}

/** Negative when `a` comes before `b`, 0 when they are the same place, positive after. */
export function compareEventIds(a: EventId, b: EventId): number {
  const [a1, a2] = partsOf(a);
  const [b1, b2] = partsOf(b);
  if (a1 !== b1) return a1 < b1 ? -1 : 1;
  return a2 === b2 ? 0 : a2 < b2 ? -1 : 1;
}

function partsOf(id: EventId): [bigint, bigint] {
  const dash = id.indexOf('-');
  return dash < 0 ? [BigInt(id), 0n] : [BigInt(id.slice(0, dash)), BigInt(id.slice(dash + 1))];
}
