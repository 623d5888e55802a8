import { randomBytes } from 'node:crypto';
import type { Cluster } from 'ioredis';
import { compareEventIds } from '../../model/event-id';
import type { ConfigEventRecord, ConfigEventType } from '../records';
import { COMMIT } from './record-script';
import { engineFailure } from './engine-failure';
import { scriptCommands } from './script-commands';
import { masterWrites, type Writes } from './cluster-engine';

/** The tables of a container's records: one Redis hash each, a record per field. */
export const TABLES = ['caches', 'templates', 'counters', 'schemas', 'roles', 'principals', 'loggers', 'tasks', 'operations', 'xsite', 'users', 'settings'] as const;
export type Table = typeof TABLES[number];

/** One change of one record: `value` undefined removes it; `mustBeAbsent` makes the whole commit fail when it exists. */
export interface Mutation {
  table: Table;
  field: string;
  value: string | undefined;
  mustBeAbsent?: boolean;
}

/** A configuration event to append in the commit (its id comes from the stream). */
export type NewConfigEvent = Omit<ConfigEventRecord, 'id'> & { keep: number };

/** What another node committed, as the follower read it, in commit order. */
export interface RemoteChange {
  mutations: Mutation[];
  events: ConfigEventRecord[];
  /** What that node asks of the others (docs/scale-out.md, "Cluster-wide operations"): opaque here. */
  order?: string;
}

/** A commit whose condition failed: `field` of `table` exists; nothing was written. */
export class RecordExistsError extends Error {
  constructor(readonly table: Table, readonly field: string) {
    super(`${table} '${field}' exists`);
  }
}

/** How many changes the change stream keeps, about: a follower further behind reloads every table. */
const CHANGES_KEPT = 10_000;
/** How long one XREAD waits for news before asking again (ms). */
const FOLLOW_BLOCK_MS = 2_000;
/** Pause after a failed read of the stream before the next try (ms). */
const RETRY_MS = 500;

type Raw = Array<string | null>;

/** The Redis keys of a container's records, all under the hash tag `{grid:<container>}`: one slot. */
export function recordKeysOf(container: string): { changes: string; events: string; meta: string; tables: string[] } {
  if (/[{}]/.test(container)) throw new Error(`a container name cannot hold { or }: ${container}`);
  const tag = `{grid:${container}}`;
  return { changes: `${tag}:changes`, events: `${tag}:config-events`, meta: `${tag}:meta`, tables: TABLES.map((t) => `${tag}:r:${t}`) };
}

/**
 * A container's records (cache definitions, templates, schemas, tasks, roles, users, …) on a Redis
 * Cluster, with a copy in this process that every node keeps current (docs/scale-out.md, "Records"):
 * reads are the copy's, synchronous; every change is one script (`COMMIT`) that writes the records
 * and appends one entry to the container's change stream; each node follows that stream and applies
 * every entry, its own included, to its copy, in stream order. A commit resolves once this node's
 * follower applied it, so a node reads its own writes, and changes reach the copy in the one order
 * Redis gave them. Listeners hear the changes of other nodes.
 */
export class ReplicatedRecords {
  readonly node = randomBytes(8).toString('hex');
  private readonly copy = new Map<Table, Map<string, string>>(TABLES.map((t) => [t, new Map()]));
  private readonly keys: ReturnType<typeof recordKeysOf>;
  private readonly keyList: string[];
  private lastId = '0-0';
  private lastSeq = 0;
  private newestEvent = '0';
  /** Commits of this node waiting for the follower to reach their change. */
  private readonly waiting = new Map<string, () => void>();
  private readonly listeners: Array<(change: RemoteChange) => void> = [];
  private readonly follower: Cluster;
  private closed = false;
  private following: Promise<void> | undefined;
  /** Settles when `close` is called: a read of the stream still pending is not waited for (a disconnected client may never settle it). */
  private readonly stopped: Promise<undefined>;
  private stop!: () => void;

  private constructor(private readonly client: Cluster, container: string, private readonly writes: Writes) {
    this.keys = recordKeysOf(container);
    this.keyList = [this.keys.changes, this.keys.events, this.keys.meta, ...this.keys.tables];
    // a blocking XREAD holds its connection: the follower has connections of its own
    this.follower = client.duplicate();
    this.follower.on('error', () => undefined); // each read reports its own failure, and the follower reads again
    this.stopped = new Promise((resolve) => { this.stop = () => resolve(undefined); });
  }

  /** Loads every table and starts following the change stream. */
  static async open(client: Cluster, container: string, writes: Writes = masterWrites(client)): Promise<ReplicatedRecords> {
    const records = new ReplicatedRecords(client, container, writes);
    try {
      await records.reload();
    } catch (err) {
      records.follower.disconnect();
      throw err;
    }
    records.following = records.follow();
    return records;
  }

  /** The records of `table`: field → value. */
  table(table: Table): ReadonlyMap<string, string> {
    return this.copy.get(table)!;
  }

  get(table: Table, field: string): string | undefined {
    return this.copy.get(table)!.get(field);
  }

  /** The id of the newest configuration event this node has seen; `0` when none. */
  get newestConfigEvent(): string {
    return this.newestEvent;
  }

  /** Hears what other nodes commit, after this node's copy has it. */
  onRemoteChange(listener: (change: RemoteChange) => void): void {
    this.listeners.push(listener);
  }

  /** How many commits this node has begun: a mark that moves whenever it writes (`RedisStore.commitsBegun`). */
  commitsBegun = 0;

  /**
   * Makes `mutations` and appends `events` in one step; resolves with the events' ids once this
   * node's copy has them. A mutation that must find its field absent and does not fails the whole
   * commit with `RecordExistsError`.
   */
  async commit(mutations: Mutation[], events: NewConfigEvent[] = [], order = ''): Promise<string[]> {
    this.commitsBegun++;
    const muts = mutations.map((m) => [TABLES.indexOf(m.table) + 1, m.field, m.value ?? null, m.mustBeAbsent ? 1 : 0]);
    const evs = events.map((e) => [e.type, e.name, e.volatile ? '1' : '0', String(e.createdAt), e.config ?? null, String(e.keep)]);
    const reply = await this.writes.run(this.keys.changes, 0, async (client) => {
      const commit = scriptCommands(client, 'gridRecords', [['commit', COMMIT, this.keyList.length]], false).commit;
      return await commit(...this.keyList, this.node, JSON.stringify(muts), JSON.stringify(evs), String(CHANGES_KEPT), order) as Raw;
    }, (answer) => answer[0] !== 'exists');
    if (reply[0] === 'exists') throw new RecordExistsError(TABLES[Number(reply[1]) - 1], reply[2]!);
    const [, change, ...ids] = reply as string[];
    await this.reached(change);
    return ids;
  }

  /**
   * Tells every other node following this stream `order` (docs/scale-out.md, "Cluster-wide
   * operations"): a change of its own, so a live node reads it in stream order, whatever it missed
   * of pub/sub; resolves once written (durably, as any commit).
   */
  async tell(order: string): Promise<void> {
    if (order === '') throw new Error('an order cannot be empty');
    await this.commit([], [], order);
  }

  /** Resolves once the follower has applied every change committed before the call (one round trip to learn the newest). */
  async catchUp(): Promise<void> {
    const [newest] = await this.client.xrevrange(this.keys.changes, '+', '-', 'COUNT', 1).catch(engineFailure);
    if (newest) await this.reached(newest[0]);
  }

  /** Resolves once the follower has applied change `id`. */
  private reached(id: string): Promise<void> {
    if (compareEventIds(id, this.lastId) <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const earlier = this.waiting.get(id);
      this.waiting.set(id, earlier ? () => { earlier(); resolve(); } : resolve);
    });
  }

  /**
   * Applies `mutations` to this node's copy at once, then commits them: for writes the SQLite engine
   * makes without waiting (users, settings). Another node's change in between may win in the cluster
   * and reach the copy after.
   */
  writeThrough(mutations: Mutation[]): Promise<string[]> {
    for (const m of mutations) this.set(m.table, m.field, m.value);
    return this.commit(mutations);
  }

  /**
   * Up to `limit` configuration events after `after` and up to `upTo`, fewer once they hold
   * `maxChars` characters of definitions; undefined when an event after `after` left the stream.
   */
  async eventPage(after: string, upTo: string, limit: number, maxChars: number): Promise<ConfigEventRecord[] | undefined> {
    const info = await this.client.xinfo('STREAM', this.keys.events).catch((err: Error) => {
      if (/no such key/i.test(err.message)) return undefined;
      return engineFailure(err);
    }) as unknown[] | undefined;
    if (info && Number(fieldOf(info, 'entries-added')) > Number(fieldOf(info, 'length'))) {
      // trimmed: events are numbered one by one, so the first kept says what left
      const first = fieldOf(info, 'first-entry') as [string, string[]] | null;
      if (!first || compareEventIds(after, String(BigInt(eventIdOf(first[0])) - 1n)) < 0) return undefined;
    }
    const rows = await this.client.xrange(this.keys.events, `(${streamId(after)}`, streamId(upTo), 'COUNT', limit).catch(engineFailure);
    const records: ConfigEventRecord[] = [];
    let chars = 0;
    for (const [id, fields] of rows) {
      const r = eventOf(eventIdOf(id), pairs(fields));
      records.push(r);
      chars += r.config?.length ?? 0;
      if (chars >= maxChars) break;
    }
    return records;
  }

  /** Stops following; commits still waiting are left unresolved (the process is closing). */
  async close(): Promise<void> {
    this.closed = true;
    this.stop();
    this.follower.disconnect();
    await this.following;
  }

  private async follow(): Promise<void> {
    while (!this.closed) {
      try {
        const read = await Promise.race([this.follower.xread('BLOCK', FOLLOW_BLOCK_MS, 'STREAMS', this.keys.changes, this.lastId), this.stopped]);
        if (this.closed) return;
        for (const [, entries] of read ?? []) for (const [id, fields] of entries) this.apply(id, pairs(fields));
      } catch {
        if (this.closed) return;
        await Promise.race([new Promise((resolve) => setTimeout(resolve, RETRY_MS)), this.stopped]);
        // the stream may have moved on while the node could not read it: start from every table again
        if (!this.closed) await Promise.race([this.reload().catch(() => undefined), this.stopped]);
      }
    }
  }

  private apply(id: string, f: Map<string, string>): void {
    if (compareEventIds(id, this.lastId) <= 0) return; // read before a reload that already has it
    const seq = Number(f.get('seq'));
    if (seq !== this.lastSeq + 1) {
      // a change left the stream before this node read it: the tables tell what it missed
      void this.reload().catch(() => undefined);
      return;
    }
    this.lastId = id;
    this.lastSeq = seq;
    const mutations = (JSON.parse(f.get('muts')!) as Array<[number, string, string | null, number]>)
      .map(([t, field, value]): Mutation => ({ table: TABLES[t - 1], field, value: value ?? undefined }));
    const told = JSON.parse(f.get('events')!) as Array<[string, ConfigEventType, string, string, string, string | null]> | Record<string, never>;
    const events = Array.isArray(told) ? told.map(([eid, type, name, volatile, created, config]) => eventOf(eid, new Map([
      ['type', type], ['name', name], ['volatile', volatile], ['created', created], ...(config === null ? [] : [['config', config] as [string, string]]),
    ]))) : [];
    for (const m of mutations) this.set(m.table, m.field, m.value);
    for (const e of events) if (compareEventIds(e.id, this.newestEvent) > 0) this.newestEvent = e.id;
    const mine = f.get('node') === this.node;
    const order = f.get('order');
    if (!mine) for (const l of this.listeners) l({ mutations, events, ...(order === undefined ? {} : { order }) });
    this.release(id);
  }

  /** Reads every table and where the streams stand in one step, then tells listeners what differs from the copy. */
  private async reload(): Promise<void> {
    const tx = this.client.multi();
    tx.xrevrange(this.keys.changes, '+', '-', 'COUNT', 1);
    tx.xrevrange(this.keys.events, '+', '-', 'COUNT', 1);
    tx.hget(this.keys.meta, 'seq');
    for (const key of this.keys.tables) tx.hgetall(key);
    const results = await tx.exec();
    if (!results) throw new Error('the records could not be read');
    for (const [err] of results) if (err) throw err;
    const values = results.map(([, v]) => v);
    const changes = values[0] as Array<[string, string[]]>;
    const events = values[1] as Array<[string, string[]]>;
    const mutations: Mutation[] = [];
    TABLES.forEach((table, i) => {
      const now = new Map(Object.entries(values[3 + i] as Record<string, string>));
      const before = this.copy.get(table)!;
      for (const [field, value] of now) if (before.get(field) !== value) mutations.push({ table, field, value });
      for (const field of before.keys()) if (!now.has(field)) mutations.push({ table, field, value: undefined });
      this.copy.set(table, now);
    });
    this.lastId = changes[0]?.[0] ?? '0-0';
    this.lastSeq = Number(values[2] ?? 0);
    if (events[0] && compareEventIds(eventIdOf(events[0][0]), this.newestEvent) > 0) this.newestEvent = eventIdOf(events[0][0]);
    if (mutations.length && this.listeners.length) for (const l of this.listeners) l({ mutations, events: [] });
    for (const id of [...this.waiting.keys()]) if (compareEventIds(id, this.lastId) <= 0) this.release(id);
  }

  private set(table: Table, field: string, value: string | undefined): void {
    if (value === undefined) this.copy.get(table)!.delete(field);
    else this.copy.get(table)!.set(field, value);
  }

  /** Resolves the commits of this node up to change `id`. */
  private release(id: string): void {
    for (const [change, resolve] of this.waiting) {
      if (compareEventIds(change, id) <= 0) {
        this.waiting.delete(change);
        resolve();
      }
    }
  }
}

/** A stream id as Redis reads one: `n` is `n-0`. */
/** The stream entry id of event `id` (`<n>-0`). */
function streamId(id: string): string {
  return id.includes('-') ? id : `${id}-0`;
}

/** The event id of a stream entry (`<n>-0` → `<n>`). */
function eventIdOf(entryId: string): string {
  return entryId.endsWith('-0') ? entryId.slice(0, -2) : entryId;
}

function pairs(flat: string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) m.set(flat[i], flat[i + 1]);
  return m;
}

function fieldOf(info: unknown[], name: string): unknown {
  for (let i = 0; i + 1 < info.length; i += 2) if (info[i] === name) return info[i + 1];
  return undefined;
}

function eventOf(id: string, f: Map<string, string>): ConfigEventRecord {
  return {
    id, type: f.get('type') as ConfigEventType, name: f.get('name')!, volatile: f.get('volatile') === '1',
    createdAt: Number(f.get('created')), config: f.get('config'),
  };
}
