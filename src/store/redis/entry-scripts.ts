/**
 * The Lua scripts behind a cache's entries on Redis Cluster (docs/scale-out.md, "Entries"). Each
 * runs on the master of one segment's slot and touches only that slot's keys (entry-layout.ts), so
 * a condition and the write it guards are one step for every node of grid that sends them. Times
 * are the caller's (`now`, epoch ms): every node applies one rule to an entry's fields, the rule of
 * src/grid/cache-entry.ts `isExpired` — an entry expires at min(created + lifespan,
 * lastUsed + maxIdle) over the limits it has, and is gone from that millisecond on.
 *
 * The shebang's flags: `no-writes` lets a listing run while Redis is at its memory limit;
 * `allow-oom` lets reads (which only move a time, or remove an expired entry) and removals run then
 * too; a bare `#!lua` (PUT) is refused before it starts when Redis is full, so no write is ever half done.
 *
 * An entry is in its segment while its key is a member of the segment's keys (`k`): Redis may have
 * removed the hash itself at the entry's expiry (PEXPIREAT), the key stays named in `k` and `x` until
 * a script finds it expired — a read, a write's prune, a remove, the reaper (REAP) — and removes it
 * with `expire` below, which publishes its expiry (docs/scale-out.md, "Entry events").
 */

/**
 * The expiry rule over an entry's fields (entry-layout.ts: `v` value, `t` media type, `c` created,
 * `u` last used, `l` lifespan, `i` max-idle, `e` ETag), shared by the scripts that judge liveness,
 * with the two reads of an entry they make: `liveEntry(k, now)`, its fields v, t, c, u, l, i, e
 * when it is live (nil when not), and `liveEtag(k, now)`, whether it is live and its ETag.
 */
export const EXPIRES_AT = `
local function expiresAt(c, u, l, i)
  local at = nil
  if l >= 0 then at = c + l end
  if i >= 0 and (at == nil or u + i < at) then at = u + i end
  return at
end
local function isLive(c, u, l, i, now)
  local at = expiresAt(c, u, l, i)
  return at == nil or at > now
end
local function liveEntry(k, now)
  local f = redis.call('HMGET', k, 'v', 't', 'c', 'u', 'l', 'i', 'e')
  if f[1] and isLive(tonumber(f[3]), tonumber(f[4]), tonumber(f[5]), tonumber(f[6]), now) then return f end
  return nil
end
local function liveEtag(k, now)
  local cur = redis.call('HMGET', k, 'c', 'u', 'l', 'i', 'e')
  return cur[1] and isLive(tonumber(cur[1]), tonumber(cur[2]), tonumber(cur[3]), tonumber(cur[4]), now), cur[5]
end
`;

/** Expired entries a write removes from its segment on its way, at most. */
export const PRUNE_PER_WRITE = 16;

/**
 * `expire(k, m)`: the expired entry `k` (key bytes `m`) leaves the segment — its hash, if Redis
 * has not removed it yet, and its members — and, when the segment still named it, its expiry is
 * published (`e`, the node, the key bytes; none when the node is '') and fed (an indexed cache's
 * feed: the node indexes then drop its document); answers whether it did. The check and the
 * removal are one step, so an entry expires once, whichever scripts of however many nodes find
 * it. Needs the locals kset, xset, channel, node, feed and feedLength ('': no feed).
 */
const EXPIRE = `
local function expire(k, m)
  redis.call('UNLINK', k)
  redis.call('ZREM', xset, m)
  if redis.call('ZREM', kset, m) == 0 then return false end
  if node ~= '' then redis.call('SPUBLISH', channel, 'e' .. node .. m) end
  if feedLength ~= '' then redis.call('XADD', feed, 'MAXLEN', '~', feedLength, '*', 'k', m) end
  return true
end
`;

/**
 * READ — KEYS: entry, keys, expiries, feed; ARGV: key bytes, now, touch ('1': a read, '0': a peek),
 * the event channel, the node's id, the feed's length ('': none). Returns [value, type|nil, created,
 * lastUsed, lifespan, maxIdle, etag], or nil when there is no live entry — or 1 when a read (not a
 * peek) found the entry expired and removed it (`expire`). A read of an entry with max-idle moves
 * lastUsed to now (never back: a node whose clock is behind does not shorten the entry's life) and
 * the entry's expiry with it, in the same step.
 */
export const READ = `#!lua flags=allow-oom
${EXPIRES_AT}
local kset, xset, feed, channel, node, feedLength = KEYS[2], KEYS[3], KEYS[4], ARGV[4], ARGV[5], ARGV[6]
${EXPIRE}
local now = tonumber(ARGV[2])
local f = liveEntry(KEYS[1], now)
if not f then
  if ARGV[3] == '1' and expire(KEYS[1], ARGV[1]) then return 1 end
  return false
end
local c, u, l, i = tonumber(f[3]), tonumber(f[4]), tonumber(f[5]), tonumber(f[6])
if ARGV[3] == '1' and i >= 0 and now > u then
  f[4] = ARGV[2]
  local at = expiresAt(c, now, l, i)
  redis.call('HSET', KEYS[1], 'u', ARGV[2])
  redis.call('PEXPIREAT', KEYS[1], at)
  redis.call('ZADD', xset, at, ARGV[1])
end
return f
`;

/**
 * PUT — KEYS: entry, keys, expiries, feed; ARGV: key bytes, now, value, type ('' = null), created,
 * lastUsed, lifespan, maxIdle, etag, condition ('' | 'absent' | 'unless-etag'), the condition's
 * ETag, the segment's entry prefix, its event channel, the writing node's id ('': no events), '1'
 * when the write publishes no event of its own (SKIP_LISTENER_NOTIFICATION: its `c` or `m`, the
 * node, the key bytes), the feed's length ('': a cache without index), '1' when the write goes to
 * the feed (not with SKIP_INDEXING). Returns {outcome, expired key…}: outcome 0 when the condition
 * kept the write from happening (a live entry exists; its ETag is the one given), 1 when it created
 * the entry, 2 when it replaced a live one; then the keys of the expired entries it removed
 * (`expire`): the key written when its entry had expired, and up to PRUNE_PER_WRITE others of the
 * segment. The entry's native expiry (PEXPIREAT) is its absolute expiry; an immortal entry is
 * PERSISTed, so an overwrite does not inherit the old expiry.
 */
export const PUT = `#!lua
${EXPIRES_AT}
local kset, xset, feed, channel, node, feedLength = KEYS[2], KEYS[3], KEYS[4], ARGV[13], ARGV[14], ARGV[16]
${EXPIRE}
local now = tonumber(ARGV[2])
local live, etag = liveEtag(KEYS[1], now)
if live and (ARGV[10] == 'absent' or (ARGV[10] == 'unless-etag' and etag == ARGV[11])) then return {0} end
local out = {0}
if not live and expire(KEYS[1], ARGV[1]) then out[#out + 1] = ARGV[1] end
for _, m in ipairs(redis.call('ZRANGE', xset, '-inf', ARGV[2], 'BYSCORE', 'LIMIT', 0, ${PRUNE_PER_WRITE})) do
  if expire(ARGV[12] .. m, m) then out[#out + 1] = m end
end
redis.call('HSET', KEYS[1], 'v', ARGV[3], 'c', ARGV[5], 'u', ARGV[6], 'l', ARGV[7], 'i', ARGV[8], 'e', ARGV[9])
if ARGV[4] == '' then redis.call('HDEL', KEYS[1], 't') else redis.call('HSET', KEYS[1], 't', ARGV[4]) end
redis.call('ZADD', kset, 0, ARGV[1])
local at = expiresAt(tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]))
if at then
  redis.call('PEXPIREAT', KEYS[1], at)
  redis.call('ZADD', xset, at, ARGV[1])
else
  redis.call('PERSIST', KEYS[1])
  redis.call('ZREM', xset, ARGV[1])
end
if node ~= '' and ARGV[15] ~= '1' then redis.call('SPUBLISH', channel, (live and 'm' or 'c') .. node .. ARGV[1]) end
if feedLength ~= '' and ARGV[17] == '1' then redis.call('XADD', feed, 'MAXLEN', '~', feedLength, '*', 'k', ARGV[1]) end
out[1] = live and 2 or 1
return out
`;

/**
 * REMOVE — KEYS: entry, keys, expiries, feed; ARGV: key bytes, now, '1' when only a given ETag may be
 * removed, that ETag, the event channel, the node's id ('': no events), '1' when the removal
 * publishes no event (`r`, the node, the key bytes), the feed's length ('': none). Returns 1
 * removed, 0 no live entry, 3 no live entry but an expired one, which it removed (`expire`), 2
 * the live entry's ETag is another (nothing removed).
 */
export const REMOVE = `#!lua flags=allow-oom
${EXPIRES_AT}
local kset, xset, feed, channel, node, feedLength = KEYS[2], KEYS[3], KEYS[4], ARGV[5], ARGV[6], ARGV[8]
${EXPIRE}
local live, etag = liveEtag(KEYS[1], tonumber(ARGV[2]))
if not live then
  if expire(KEYS[1], ARGV[1]) then return 3 end
  return 0
end
if ARGV[3] == '1' and etag ~= ARGV[4] then return 2 end
redis.call('UNLINK', KEYS[1])
redis.call('ZREM', kset, ARGV[1])
redis.call('ZREM', xset, ARGV[1])
if node ~= '' and ARGV[7] ~= '1' then redis.call('SPUBLISH', channel, 'r' .. node .. ARGV[1]) end
if feedLength ~= '' then redis.call('XADD', feed, 'MAXLEN', '~', feedLength, '*', 'k', ARGV[1]) end
return 1
`;

/**
 * REAP — KEYS: keys, expiries, feed; ARGV: now, limit, the entry prefix, the event channel, the
 * node's id, the feed's length ('': none). The periodic reaper's step in one segment (docs/scale-out.md,
 * "Entry events"): removes the segment's first `limit` entries whose expiry has come, each with
 * `expire`; returns their keys (fewer than `limit`: the segment has no more).
 */
export const REAP = `#!lua flags=allow-oom
local kset, xset, feed, channel, node, feedLength = KEYS[1], KEYS[2], KEYS[3], ARGV[4], ARGV[5], ARGV[6]
${EXPIRE}
local out = {}
for _, m in ipairs(redis.call('ZRANGE', xset, '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[2]))) do
  if expire(ARGV[3] .. m, m) then out[#out + 1] = m end
end
return out
`;

/**
 * DUE — KEYS: the first segment's expiries (where the call goes); ARGV: now, then the expiries of
 * each segment. Returns the positions (1: the first segment) of the segments that hold an entry
 * whose expiry has come: the reaper sends REAP to those alone, so a run over a cache with nothing
 * expired is one such call per master (O(log n) per segment) where REAP would be one call per
 * segment. Every set must be in a slot this master serves (`allow-cross-slot-keys` lets the script
 * read several slots of it); a call that names another master's fails, and its segments are reaped one by one.
 */
export const DUE = `#!lua flags=no-writes,allow-cross-slot-keys
local out = {}
for n = 2, #ARGV do
  if #redis.call('ZRANGE', ARGV[n], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, 1) > 0 then out[#out + 1] = n - 1 end
end
return out
`;

/**
 * SIZE — KEYS: keys, expiries; ARGV: now. The segment's live entries: its keys less those whose
 * expiry has come (O(log n): nothing is walked).
 */
export const SIZE = `#!lua flags=no-writes
return redis.call('ZCARD', KEYS[1]) - redis.call('ZCOUNT', KEYS[2], '-inf', ARGV[1])
`;

/** A page of the segment's keys after ARGV[2] (when ARGV[3] is '1'), at most ARGV[4] of them. */
const PAGE_OF_KEYS = `
local limit = tonumber(ARGV[4])
local from = '-'
if ARGV[3] == '1' then from = '(' .. ARGV[2] end
local ms = redis.call('ZRANGE', KEYS[1], from, '+', 'BYLEX', 'LIMIT', 0, limit)
local now = tonumber(ARGV[1])
local out = { false }
`;

/**
 * KEYS_PAGE — KEYS: keys, expiries; ARGV: now, after, '1' when `after` applies, limit, the entry
 * prefix. Returns [cursor|nil, key…]: the live keys of the next `limit` keys in byte order (an
 * entry is live when its hash exists and its expiry has not come); the cursor, the last key looked
 * at, is nil once the segment is done.
 */
export const KEYS_PAGE = `#!lua flags=no-writes
${PAGE_OF_KEYS}
for _, m in ipairs(ms) do
  local at = redis.call('ZSCORE', KEYS[2], m)
  if (not at or tonumber(at) > now) and redis.call('EXISTS', ARGV[5] .. m) == 1 then out[#out + 1] = m end
end
if #ms == limit then out[1] = ms[#ms] end
return out
`;

/**
 * ENTRIES_PAGE — KEYS: keys, expiries; ARGV: now, after, '1' when `after` applies, limit, bytes,
 * the entry prefix. Returns [cursor|nil, then per live entry: key, value, type|nil, created,
 * lastUsed, lifespan, maxIdle]: at most `limit` keys looked at, and it stops after the entry that
 * brings its keys and values to `bytes` or more — a page holds at most `bytes` plus one entry.
 */
export const ENTRIES_PAGE = `#!lua flags=no-writes
${EXPIRES_AT}
${PAGE_OF_KEYS}
local budget = tonumber(ARGV[5])
local bytes = 0
local more = #ms == limit
for n, m in ipairs(ms) do
  local f = liveEntry(ARGV[6] .. m, now)
  if f then
    out[#out + 1] = m
    for j = 1, 6 do out[#out + 1] = f[j] end
    bytes = bytes + #m + #f[1]
    if bytes >= budget and n < #ms then
      out[1] = m
      return out
    end
  end
end
if more then out[1] = ms[#ms] end
return out
`;

/**
 * CLEAR_PAGE — KEYS: keys, expiries, feed; ARGV: the entry prefix, limit, the feed's length ('':
 * none; else a `c` marker goes to the feed). Removes the segment's first `limit` entries (UNLINK:
 * their memory is freed off Redis's main thread) and their index members; returns how many keys
 * it took (0: the segment is empty).
 */
export const CLEAR_PAGE = `#!lua flags=allow-oom
local ms = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
if #ms == 0 then return 0 end
for _, m in ipairs(ms) do redis.call('UNLINK', ARGV[1] .. m) end
redis.call('ZREM', KEYS[1], unpack(ms))
redis.call('ZREM', KEYS[2], unpack(ms))
if ARGV[3] ~= '' then redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[3], '*', 'c', '') end
return #ms
`;

/** MARK — KEYS: feed; ARGV: the feed's length, the marker (`r` reindex, `x` index clear). */
export const MARK = `#!lua flags=allow-oom
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', ARGV[2], '')
return 1
`;

/**
 * One read of a segment's feed (`q:{…}`, entry-layout.ts), after `after` (a stream id) by a reader
 * that had seen `seen` of the entries the feed received. Answers [tail, added, last, read, stop,
 * then per key: key, value|nil, type|nil, created, lastUsed, lifespan, maxIdle]: the feed's newest id
 * and how many entries it ever received; the id of the last feed entry read ('' none) and how many
 * were read; why the read stopped early (`gap`, a marker `c`/`r`/`x`, which is read, or ''). Each
 * key the read entries name comes once, with its live entry as it is now (nil fields: none) — the
 * state, not the change, so the reader need not apply changes in order. `gap`: entries after
 * `after` have been trimmed (the stream dropped more than `seen`) or the stream is younger than
 * `seen`. It reads at most `limit` entries and stops after the entry that brings its keys and values
 * to `budget` bytes or more. A limit of 0 answers [tail, added, '', length, '']: where the feed ends,
 * and whether it still holds every entry it received (added = length).
 */
const READ_FEED = `
local function readFeed(feed, after, seen, limit, now, budget, prefix)
  local out = { '0-0', 0, '', 0, '' }
  local length = 0
  if redis.call('EXISTS', feed) == 1 then
    local info = redis.call('XINFO', 'STREAM', feed)
    for n = 1, #info, 2 do
      if info[n] == 'last-generated-id' then out[1] = info[n + 1]
      elseif info[n] == 'entries-added' then out[2] = info[n + 1]
      elseif info[n] == 'length' then length = info[n + 1] end
    end
  end
  if limit == 0 then
    out[4] = length
    return out
  end
  if out[2] < seen or out[2] - length > seen then
    out[5] = 'gap'
    return out
  end
  local bytes = 0
  local done = {}
  for _, e in ipairs(redis.call('XRANGE', feed, '(' .. after, '+', 'COUNT', limit)) do
    out[3] = e[1]
    out[4] = out[4] + 1
    if e[2][1] ~= 'k' then
      out[5] = e[2][1]
      return out
    end
    local m = e[2][2]
    if not done[m] then
      done[m] = true
      out[#out + 1] = m
      local f = liveEntry(prefix .. m, now)
      if f then
        for j = 1, 6 do out[#out + 1] = f[j] end
        bytes = bytes + #m + #f[1]
        if bytes >= budget then return out end
      else
        for j = 1, 6 do out[#out + 1] = false end
      end
    end
  end
  return out
end
`;

/** FEED_READ — KEYS: feed; ARGV: after, seen, limit, now, budget, the entry prefix. One read of the feed (`readFeed` above). */
export const FEED_READ = `#!lua flags=no-writes
${EXPIRES_AT}
${READ_FEED}
return readFeed(KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6])
`;

/**
 * FEEDS_READ — KEYS: the first feed (where the call goes); ARGV: limit, now, budget, then per
 * segment: its feed, after, seen, its entry prefix. A read of each feed (`readFeed` above), one answer
 * each, in one call: the segments of one master read with one command where FEED_READ takes one
 * each. Every feed must be in a slot this master serves (`allow-cross-slot-keys` lets the script
 * touch several slots of it); a call that names another master's fails, and its reads are made one by one.
 */
export const FEEDS_READ = `#!lua flags=no-writes,allow-cross-slot-keys
${EXPIRES_AT}
${READ_FEED}
local limit, now, budget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local out = {}
for n = 4, #ARGV, 4 do
  out[#out + 1] = readFeed(ARGV[n], ARGV[n + 1], tonumber(ARGV[n + 2]), limit, now, budget, ARGV[n + 3])
end
return out
`;
