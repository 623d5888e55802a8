/**
 * The Lua scripts behind counter values on Redis Cluster (docs/scale-out.md, "Counters"). Each one
 * runs on the master of one counter's key (redis-counters.ts: a hash of `v`, the value as decimal
 * text, and `u`, the last update in epoch ms; no key: the initial value) and applies the rules of
 * src/grid/counter.ts in one step, whichever node of grid sends it.
 *
 * ARGV of every script starts with the counter's definition and the caller's clock:
 *   1 initial value, 2 bounded ('1': a strong counter with bounds), 3 lower bound, 4 upper bound,
 *   5 lifespan (ms; <= 0: none), 6 now (epoch ms)
 * Values travel as decimal text, both ways.
 *
 * Lua's numbers are doubles, exact only up to 2^53, so 64-bit values are never Lua numbers: a value
 * is a pair {hi, lo} meaning hi * 10^10 + lo with 0 <= lo < 10^10 (hi is negative for a negative
 * value), both parts well inside 2^53. Text splits into the pair at its tenth digit from the right,
 * a sum adds the parts with a carry, and pairs compare part by part, all exact; a sum of two 64-bit
 * values (up to 2^64 in size) fits, so a saturation or bound check sees the true sum.
 */
const INT64 = `
local B = 10000000000
local function parse(s)
  local neg = string.sub(s, 1, 1) == '-'
  local d = neg and string.sub(s, 2) or s
  local hi, lo = 0, tonumber(string.sub(d, -10))
  if #d > 10 then hi = tonumber(string.sub(d, 1, #d - 10)) end
  if not neg then return {hi, lo} end
  if lo == 0 then return {-hi, 0} end
  return {-hi - 1, B - lo}
end
local function format(x)
  local hi, lo, sign = x[1], x[2], ''
  if hi < 0 then
    sign = '-'
    if lo == 0 then hi = -hi else hi, lo = -hi - 1, B - lo end
  end
  if hi == 0 then return sign .. string.format('%.0f', lo) end
  return sign .. string.format('%.0f', hi) .. string.format('%010.0f', lo)
end
local function add(a, b)
  local hi, lo = a[1] + b[1], a[2] + b[2]
  if lo >= B then return {hi + 1, lo - B} end
  return {hi, lo}
end
local function cmp(a, b)
  if a[1] ~= b[1] then return a[1] < b[1] and -1 or 1 end
  if a[2] ~= b[2] then return a[2] < b[2] and -1 or 1 end
  return 0
end
local LONG_MAX, LONG_MIN = parse('9223372036854775807'), parse('-9223372036854775808')
`;

/**
 * The value now (text): none stored, or a lifespan passed since the last update — the initial
 * value (Counter.value); `set` writes a value with the caller's now as its last update; `beyond`
 * names the bound a value is outside ('U', 'L') or nil (CounterOutOfBoundsError's 'Upper bound' / 'Lower bound').
 */
const CELL = `${INT64}
local function current()
  local f = redis.call('HMGET', KEYS[1], 'v', 'u')
  if not f[1] then return ARGV[1] end
  local lifespan = tonumber(ARGV[5])
  if lifespan > 0 and tonumber(ARGV[6]) >= tonumber(f[2]) + lifespan then return ARGV[1] end
  return f[1]
end
local function set(v)
  redis.call('HSET', KEYS[1], 'v', v, 'u', ARGV[6])
end
local function beyond(x)
  if ARGV[2] ~= '1' then return nil end
  if cmp(x, parse(ARGV[4])) > 0 then return 'U' end
  if cmp(x, parse(ARGV[3])) < 0 then return 'L' end
  return nil
end
`;

/** VALUE — KEYS: counter; ARGV: the definition and now. Returns the value. */
export const VALUE = `#!lua flags=no-writes
${CELL}
return current()
`;

/**
 * ADD — KEYS: counter; ARGV: the definition, now, 7 delta. Returns {new value}, or {bound, 'U'|'L'}
 * when the sum is past a bound of a bounded counter: the value is then set AT that bound. An
 * unbounded counter saturates at the 64-bit limits.
 */
export const ADD = `#!lua
${CELL}
local sum = add(parse(current()), parse(ARGV[7]))
local past = beyond(sum)
if past then
  local bound = past == 'U' and ARGV[4] or ARGV[3]
  set(bound)
  return {bound, past}
end
if cmp(sum, LONG_MAX) > 0 then sum = LONG_MAX elseif cmp(sum, LONG_MIN) < 0 then sum = LONG_MIN end
local v = format(sum)
set(v)
return {v}
`;

/**
 * COMPARE_AND_SWAP — KEYS: counter; ARGV: the definition, now, 7 expect, 8 update. Sets the update
 * when the value is the one expected. Returns {previous}, or {previous, 'U'|'L'} when the value
 * matched but the update is outside the bounds (nothing changed).
 */
export const COMPARE_AND_SWAP = `#!lua
${CELL}
local previous = current()
if cmp(parse(previous), parse(ARGV[7])) ~= 0 then return {previous} end
local past = beyond(parse(ARGV[8]))
if past then return {previous, past} end
set(ARGV[8])
return {previous}
`;

/**
 * GET_AND_SET — KEYS: counter; ARGV: the definition, now, 7 update. Returns {previous}, or
 * {previous, 'U'|'L'} when the update is outside the bounds (nothing changed).
 */
export const GET_AND_SET = `#!lua
${CELL}
local previous = current()
local past = beyond(parse(ARGV[7]))
if past then return {previous, past} end
set(ARGV[7])
return {previous}
`;
