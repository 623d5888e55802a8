import type { Cluster } from 'ioredis';
import { scriptCommands, type ScriptCall, type ScriptTable } from './script-commands';

/** What a grid node announces of itself with each heartbeat (docs/scale-out.md, "Membership"). */
export interface MemberRecord {
  name: string;
  /** The process's id (the one its writes publish): tells a node from another that took its name. */
  id: string;
  /** Its `cluster-name`. */
  cluster: string;
  /** host:port it serves HTTP on. */
  address: string;
  version: string;
  /** When it started (epoch ms, its own clock). */
  startedAt: number;
  /** Its default container's status (`RUNNING`, `STOPPED` after a shutdown …). */
  status: string;
  /** Its heap in use and free within the heap's size, bytes, at the heartbeat. */
  memoryUsed: number;
  memoryAvailable: number;
}

/** What an announcement did: recorded, or refused with the live member that stands in the way. */
export type Announced =
  | { kind: 'ok' }
  /** another live process holds the name, for `remainingMs` more unless it beats again */
  | { kind: 'clash'; holder: MemberRecord; remainingMs: number }
  /** a live member carries another cluster name */
  | { kind: 'cluster'; member: MemberRecord };

/** Milliseconds of Redis's clock (`TIME`): every node judges liveness by the one clock of this slot's master. */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * ANNOUNCE — KEYS: the deadlines (sorted set: name → deadline, epoch ms of Redis's clock), the
 * records (hash: name → JSON). ARGV: name, process id, cluster name, the record (JSON), time to
 * live (ms). Forgets the members whose deadline passed, then refuses when another live process
 * holds the name ({'clash', its record, ms it has left}) or a live member has another cluster name
 * ({'cluster', its record}); else records the member with its deadline ({'ok'}).
 */
const ANNOUNCE = `${NOW}
for _, gone in ipairs(redis.call('ZRANGE', KEYS[1], '-inf', now, 'BYSCORE')) do redis.call('HDEL', KEYS[2], gone) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('HGET', KEYS[2], ARGV[1])
if held and cjson.decode(held).id ~= ARGV[2] then
  return {'clash', held, string.format('%.0f', tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1])) - now)}
end
for _, record in ipairs(redis.call('HVALS', KEYS[2])) do
  local other = cjson.decode(record)
  if other.id ~= ARGV[2] and other.cluster ~= ARGV[3] then return {'cluster', record} end
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[5]), ARGV[1])
return {'ok'}
`;

/** LIST — KEYS as ANNOUNCE: the records of the members whose deadline has not passed. */
const LIST = `#!lua flags=no-writes
${NOW}
local names = redis.call('ZRANGE', KEYS[1], '(' .. string.format('%.0f', now), '+inf', 'BYSCORE')
if #names == 0 then return {} end
return redis.call('HMGET', KEYS[2], unpack(names))
`;

/** LEAVE — KEYS as ANNOUNCE; ARGV: name, process id. Removes the member, if that process holds the name. */
const LEAVE = `
local held = redis.call('HGET', KEYS[2], ARGV[1])
if held and cjson.decode(held).id == ARGV[2] then
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[1], ARGV[1])
end
return 1
`;

type MemberScript = 'announce' | 'list' | 'leave';
const SCRIPTS: ScriptTable<MemberScript> = [['announce', ANNOUNCE, 2], ['list', LIST, 2], ['leave', LEAVE, 2]];

/**
 * The live grid nodes of one grid on a Redis Cluster (docs/scale-out.md, "Membership"): two keys
 * under one hash tag, `{grid-nodes}` (`{grid-nodes:<namespace>}` with a namespace), so one script
 * sees and changes both. A member is live until its deadline, which each heartbeat moves on;
 * this class decides nothing about when to beat (src/services/cluster.service.ts does).
 */
export class RedisMemberRegistry {
  private readonly keys: [string, string];
  private readonly scripts: Record<MemberScript, ScriptCall>;

  constructor(client: Cluster, namespace: string | undefined) {
    const tag = `{grid-nodes${namespace ? `:${namespace}` : ''}}`;
    this.keys = [`${tag}:deadlines`, `${tag}:records`];
    this.scripts = scriptCommands(client, 'gridMembers', SCRIPTS, false);
  }

  /** Records `member` as live for `ttlMs` (from Redis's now), unless the name or the cluster name is in the way. */
  async announce(member: MemberRecord, ttlMs: number): Promise<Announced> {
    const [kind, record, remaining] = await this.scripts.announce(...this.keys, member.name, member.id, member.cluster, JSON.stringify(member), ttlMs) as string[];
    if (kind === 'clash') return { kind, holder: JSON.parse(record) as MemberRecord, remainingMs: Number(remaining) };
    if (kind === 'cluster') return { kind, member: JSON.parse(record) as MemberRecord };
    return { kind: 'ok' };
  }

  /** The live members, in no particular order. */
  async list(): Promise<MemberRecord[]> {
    const records = await this.scripts.list(...this.keys) as Array<string | null>;
    return records.filter((r): r is string => r !== null).map((r) => JSON.parse(r) as MemberRecord);
  }

  /** Removes the member `name` if the process `id` holds it (a clean stop). */
  async leave(name: string, id: string): Promise<void> {
    await this.scripts.leave(...this.keys, name, id);
  }
}
