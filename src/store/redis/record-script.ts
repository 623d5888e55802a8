/**
 * The one script every change of a container's records goes through (docs/scale-out.md,
 * "Records"): all of a container's keys share its hash tag, so they live in one slot and one
 * script changes them atomically.
 *
 * COMMIT — KEYS: the change stream, the configuration event stream, the meta hash, then one hash
 * per table (in the order of `TABLES`). ARGV: the writing node's id, the mutations (JSON: an array
 * of [table index (1-based), field, value or null, 1 when the field must be absent]), the events
 * (JSON: an array of [type, name, volatile, created, config or null, keep]), how many changes the
 * change stream keeps (about), an order to the other nodes (text; empty: none).
 *
 * Every condition is checked before anything is written: a field that must be absent and is not
 * answers {'exists', table index, field} with nothing written. Otherwise the mutations are made,
 * each event is appended to the configuration event stream (`MAXLEN keep`, exact: the log keeps what
 * `config-event-log` says, as on SQLite) under the next number
 * of the meta hash's `event` (entry id `<n>-0`; the event's id is `<n>`, a decimal number as on the
 * SQLite engine, one more than the event before it), and one entry to the
 * change stream carries the node, a sequence number (one more than the previous change's, so a
 * follower can tell when it missed one), the mutations as given, the events with their ids and the
 * order, if any (docs/scale-out.md, "Cluster-wide operations").
 * Returns {'ok', change id, event ids…}. Every value travels as a string: Lua's numbers are doubles.
 */
export const COMMIT = `#!lua
local muts = cjson.decode(ARGV[2])
local events = cjson.decode(ARGV[3])
for _, m in ipairs(muts) do
  if m[4] == 1 and redis.call('HEXISTS', KEYS[3 + m[1]], m[2]) == 1 then return {'exists', tostring(m[1]), m[2]} end
end
for _, m in ipairs(muts) do
  if m[3] == cjson.null then redis.call('HDEL', KEYS[3 + m[1]], m[2])
  else redis.call('HSET', KEYS[3 + m[1]], m[2], m[3]) end
end
local ids = {}
local told = {}
for _, e in ipairs(events) do
  local n = tostring(redis.call('HINCRBY', KEYS[3], 'event', 1))
  local args = {'XADD', KEYS[2], 'MAXLEN', e[6], n .. '-0', 'type', e[1], 'name', e[2], 'volatile', e[3], 'created', e[4]}
  if e[5] ~= cjson.null then
    args[#args + 1] = 'config'
    args[#args + 1] = e[5]
  end
  redis.call(unpack(args))
  ids[#ids + 1] = n
  told[#told + 1] = {n, e[1], e[2], e[3], e[4], e[5]}
end
local seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
local entry = {'XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '*', 'node', ARGV[1], 'seq', tostring(seq), 'muts', ARGV[2], 'events', cjson.encode(told)}
if ARGV[5] ~= '' then
  entry[#entry + 1] = 'order'
  entry[#entry + 1] = ARGV[5]
end
local change = redis.call(unpack(entry))
local reply = {'ok', change}
for _, id in ipairs(ids) do reply[#reply + 1] = id end
return reply
`;
