import { ENTRY_OVERHEAD } from '../../model/stored-entry';
import { EXPIRES_AT, PRUNE_PER_WRITE } from './entry-scripts';

/**
 * The scripts of a bounded cache (memory.max-count, memory.max-size) on Redis Cluster
 * (docs/scale-out.md, "Bounded caches"). Such a cache lives in one segment (entry-layout.ts), so
 * each of these scripts sees every entry of the cache, and a write keeps the bound exactly, in the
 * same step: it counts the segment's keys, weighs them as the local memory tier does (key and value
 * bytes plus ENTRY_OVERHEAD, kept as a sum in `s` of the segment's sums hash) and, past the bound,
 * evicts the least recently used (`r`, scored by a use sequence `q` the scripts raise) — or, with
 * when-full EXCEPTION, writes nothing. Expired entries go first and count as nothing.
 *
 * The entries have no Redis expiry: the scripts remove them (expired ones on each write, as the
 * unbounded put does, on a read that finds one, and in the reaper's BOUNDED_REAP), so the sums never
 * miss an entry Redis removed by itself; each expired entry removed is published as the unbounded
 * scripts publish it (`expire`, entry-scripts.ts). The other scripts of entry-scripts.ts (size, keys
 * and entries pages) serve both layouts unchanged.
 */

/**
 * `drop(k, m)`: removes the entry `k` (key bytes `m`) with its members and its weight; answers
 * whether the segment named it. `expire(k, m)`: drops an expired entry and publishes its expiry
 * (`e`, the node, the key bytes; none when the node is ''), once — as the unbounded scripts'
 * `expire` (entry-scripts.ts). Needs the locals kset, xset, rset and sums (the segment's keys,
 * expiries, recency and sums), channel and node.
 */
const DROP = `
local function drop(k, m)
  local w = redis.call('HSTRLEN', k, 'v')
  if redis.call('UNLINK', k) == 1 then redis.call('HINCRBY', sums, 's', -(w + #m + ${ENTRY_OVERHEAD})) end
  redis.call('ZREM', xset, m)
  redis.call('ZREM', rset, m)
  return redis.call('ZREM', kset, m) == 1
end
local function expire(k, m)
  if not drop(k, m) then return false end
  if node ~= '' then redis.call('SPUBLISH', channel, 'e' .. node .. m) end
  return true
end
`;

/**
 * BOUNDED_READ — KEYS: entry, keys, expiries, recency, sums; ARGV: key bytes, now, touch ('1': a
 * read, '0': a peek), the event channel, the node's id. As READ (entry-scripts.ts), an expired
 * entry a read finds removed (1); a read also makes the entry the most recently used.
 */
export const BOUNDED_READ = `#!lua flags=allow-oom
${EXPIRES_AT}
local kset, xset, rset, sums, channel, node = KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[4], ARGV[5]
${DROP}
local now = tonumber(ARGV[2])
local f = liveEntry(KEYS[1], now)
if not f then
  if ARGV[3] == '1' and expire(KEYS[1], ARGV[1]) then return 1 end
  return false
end
local c, u, l, i = tonumber(f[3]), tonumber(f[4]), tonumber(f[5]), tonumber(f[6])
if ARGV[3] == '1' then
  redis.call('ZADD', rset, 'XX', redis.call('HINCRBY', sums, 'q', 1), ARGV[1])
  if i >= 0 and now > u then
    f[4] = ARGV[2]
    redis.call('HSET', KEYS[1], 'u', ARGV[2])
    redis.call('ZADD', xset, expiresAt(c, now, l, i), ARGV[1])
  end
end
return f
`;

/**
 * Entries one put script removes at most to make room (expired or least recently used): a write
 * that needs more — after a lowered bound, or a large value among small ones — takes several
 * scripts, so no script holds the master for long whatever the bound.
 */
export const EVICT_PER_SCRIPT = 256;

/**
 * BOUNDED_PUT — KEYS: entry, keys, expiries, recency, sums; ARGV: as PUT's (entry-scripts.ts,
 * 1–15), then max-count and max-size in bytes (-1: none), and '1' when a write past the bound is
 * refused (when-full EXCEPTION) rather than making room. Returns {outcome, evicted, expired key…}:
 * outcome as PUT's, 3 when the bound refused the write, or 4 when the room is not made yet
 * (EVICT_PER_SCRIPT entries went; the caller sends the write again) — nothing written with 3 or 4;
 * evicted, how many live entries left to make room; then, as PUT's, the keys of the expired entries
 * it removed (published: with 3 and 4 too). Room is made before the write, expired entries first,
 * then the least recently used other than the key written; an entry heavier than max-size on its
 * own is evicted at once (with the one it replaces) and the others kept, as the local memory tier does.
 */
export const BOUNDED_PUT = `#!lua
${EXPIRES_AT}
local kset, xset, rset, sums, channel, node = KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[13], ARGV[14]
${DROP}
local now = tonumber(ARGV[2])
local maxCount, maxSize, refuse = tonumber(ARGV[16]), tonumber(ARGV[17]), ARGV[18] == '1'
local live, etag = liveEtag(KEYS[1], now)
if live and (ARGV[10] == 'absent' or (ARGV[10] == 'unless-etag' and etag == ARGV[11])) then return {0, 0} end
local expired = {}
local function answer(outcome, evicted)
  return {outcome, evicted, unpack(expired)}
end
if not live and expire(KEYS[1], ARGV[1]) then expired[#expired + 1] = ARGV[1] end
for _, m in ipairs(redis.call('ZRANGE', xset, '-inf', ARGV[2], 'BYSCORE', 'LIMIT', 0, ${PRUNE_PER_WRITE})) do
  if expire(ARGV[12] .. m, m) then expired[#expired + 1] = m end
end
local function published()
  if node ~= '' and ARGV[15] ~= '1' then redis.call('SPUBLISH', channel, (live and 'm' or 'c') .. node .. ARGV[1]) end
  if live then return 2 end
  return 1
end
local weight = #ARGV[1] + #ARGV[3] + ${ENTRY_OVERHEAD}
if maxSize >= 0 and weight > maxSize and not refuse then
  drop(KEYS[1], ARGV[1])
  return answer(published(), 1)
end
-- what the write adds: an entry unless it replaces one, and its weight less the one it replaces
local function growth()
  if redis.call('EXISTS', KEYS[1]) == 0 then return 1, weight end
  return 0, weight - (redis.call('HSTRLEN', KEYS[1], 'v') + #ARGV[1] + ${ENTRY_OVERHEAD})
end
local function over(count, bytes)
  return (maxCount >= 0 and redis.call('ZCARD', kset) + count > maxCount)
    or (maxSize >= 0 and tonumber(redis.call('HGET', sums, 's') or '0') + bytes > maxSize)
end
local evicted, alone = 0, false
for _ = 1, ${EVICT_PER_SCRIPT} do
  if not over(growth()) then break end
  local gone = redis.call('ZRANGE', xset, '-inf', ARGV[2], 'BYSCORE', 'LIMIT', 0, 1)[1]
  if gone then
    if expire(ARGV[12] .. gone, gone) then expired[#expired + 1] = gone end
  else
    if refuse then return answer(3, 0) end
    local lru = redis.call('ZRANGE', rset, 0, 1)
    local victim = lru[1]
    if victim == ARGV[1] then victim = lru[2] end
    if not victim then -- only the key written is left: it stays, as the newest
      alone = true
      break
    end
    drop(ARGV[12] .. victim, victim)
    evicted = evicted + 1
  end
end
if not alone and over(growth()) then return answer(4, evicted) end
local _, added = growth()
redis.call('HSET', KEYS[1], 'v', ARGV[3], 'c', ARGV[5], 'u', ARGV[6], 'l', ARGV[7], 'i', ARGV[8], 'e', ARGV[9])
if ARGV[4] == '' then redis.call('HDEL', KEYS[1], 't') else redis.call('HSET', KEYS[1], 't', ARGV[4]) end
redis.call('HINCRBY', sums, 's', added)
redis.call('ZADD', kset, 0, ARGV[1])
redis.call('ZADD', rset, redis.call('HINCRBY', sums, 'q', 1), ARGV[1])
local at = expiresAt(tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]))
if at then redis.call('ZADD', xset, at, ARGV[1]) else redis.call('ZREM', xset, ARGV[1]) end
return answer(published(), evicted)
`;

/**
 * BOUNDED_REMOVE — KEYS: entry, keys, expiries, recency, sums; ARGV: as REMOVE's (entry-scripts.ts,
 * 1–7). As REMOVE, the entry's weight leaving the sum.
 */
export const BOUNDED_REMOVE = `#!lua flags=allow-oom
${EXPIRES_AT}
local kset, xset, rset, sums, channel, node = KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[5], ARGV[6]
${DROP}
local live, etag = liveEtag(KEYS[1], tonumber(ARGV[2]))
if not live then
  if expire(KEYS[1], ARGV[1]) then return 3 end
  return 0
end
if ARGV[3] == '1' and etag ~= ARGV[4] then return 2 end
drop(KEYS[1], ARGV[1])
if node ~= '' and ARGV[7] ~= '1' then redis.call('SPUBLISH', channel, 'r' .. node .. ARGV[1]) end
return 1
`;

/**
 * BOUNDED_REAP — KEYS: keys, expiries, recency, sums; ARGV: now, limit, the entry prefix, the event
 * channel, the node's id. As REAP (entry-scripts.ts), each entry's weight leaving the sum.
 */
export const BOUNDED_REAP = `#!lua flags=allow-oom
local kset, xset, rset, sums, channel, node = KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[4], ARGV[5]
${DROP}
local out = {}
for _, m in ipairs(redis.call('ZRANGE', xset, '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[2]))) do
  if expire(ARGV[3] .. m, m) then out[#out + 1] = m end
end
return out
`;

/**
 * BOUNDED_CLEAR_PAGE — KEYS: keys, expiries, recency, sums; ARGV: the entry prefix, limit. As
 * CLEAR_PAGE, each entry's weight leaving the sum.
 */
export const BOUNDED_CLEAR_PAGE = `#!lua flags=allow-oom
local kset, xset, rset, sums = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local channel, node = '', ''
${DROP}
local ms = redis.call('ZRANGE', kset, 0, tonumber(ARGV[2]) - 1)
for _, m in ipairs(ms) do drop(ARGV[1] .. m, m) end
return #ms
`;
