import type { Cluster } from 'ioredis';
import { engineFailure } from './engine-failure';

/** A node of the Redis Cluster, named by the address clients reach it at (`host:port`). */
export interface RedisNode {
  id: string;
  address: string;
}

/** The nodes that hold one slot: its master, then its replicas that are not failing. */
export interface SlotOwners {
  master: RedisNode;
  replicas: RedisNode[];
}

/** The cluster as its masters reported it (`CLUSTER NODES`). */
export interface Topology {
  /** The owners of `slot`; undefined while no master serves it. */
  owners(slot: number): SlotOwners | undefined;
  /** Whether `slot` is being moved to another master (`redis-cli --cluster reshard`, a rebalance). */
  migrating(slot: number): boolean;
  /** The masters that serve slots, in address order. */
  readonly masters: readonly RedisNode[];
  /** How many slots are being moved. */
  readonly migratingSlots: number;
  /** How many slots no reachable master serves (none assigned, or its master flagged failing). */
  readonly uncovered: number;
}

/** The cluster's state as the health reports it, with the reason of a state that is not HEALTHY. */
export interface ClusterState {
  status: 'HEALTHY' | 'HEALTHY_REBALANCING' | 'DEGRADED';
  reason: string;
}

const SLOTS = 16384;

/** How old a topology may be before the next use reads it again; how often `watch` reads it. */
const MAX_AGE_MS = 1_000;

/** What is known while no master answers: nothing is served. */
const UNREACHABLE: Topology = { owners: () => undefined, migrating: () => false, masters: [], migratingSlots: 0, uncovered: SLOTS };

/**
 * Who holds what in the cluster (docs/scale-out.md, "Owners and health"), read with `CLUSTER NODES`
 * from every master and kept for a second: the owners of a key's slot for `?extended` and
 * `?action=distribution`, and whether slots move or lack a master for the health. A topology older
 * than a second is answered from while a fresh one is read, so a request waits for the cluster only
 * the first time; `watch` keeps it fresh.
 */
export class ClusterTopology {
  private known: { at: number; topology: Topology } | undefined;
  private reading: Promise<Topology> | undefined;

  constructor(private readonly client: Cluster, private readonly now: () => number = Date.now) {}

  /** The topology, at once when one is known. */
  current(): Topology | Promise<Topology> {
    const known = this.known;
    if (known && this.now() - known.at < MAX_AGE_MS) return known.topology;
    const fresh = this.refresh();
    if (!known) return fresh;
    fresh.catch(() => undefined); // the next use tries again
    return known.topology;
  }

  /**
   * The health as last read (HEALTHY before the first read): of the whole cluster, or of `slots`
   * alone (a cache's) — DEGRADED while one has no reachable master, HEALTHY_REBALANCING while one moves.
   */
  health(slots?: readonly number[]): ClusterState['status'] {
    const t = this.known?.topology;
    if (!t) return 'HEALTHY';
    if (!slots) return stateOf(t).status;
    let moving = false;
    for (const slot of slots) {
      if (!t.owners(slot)) return 'DEGRADED';
      moving ||= t.migrating(slot);
    }
    return moving ? 'HEALTHY_REBALANCING' : 'HEALTHY';
  }

  /**
   * Reads the topology every second until the returned function is called; `changed` hears the
   * cluster's state each time it changes (the first time too).
   */
  watch(changed: (state: ClusterState) => void): () => void {
    let last = '';
    const tick = () => {
      this.refresh().catch(() => undefined).finally(() => {
        const state = stateOf(this.known?.topology ?? UNREACHABLE);
        if (state.status + state.reason !== last) changed(state);
        last = state.status + state.reason;
      });
    };
    tick();
    const timer = setInterval(tick, MAX_AGE_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  private refresh(): Promise<Topology> {
    return this.reading ??= this.read().finally(() => { this.reading = undefined; });
  }

  /**
   * `CLUSTER NODES` of every master at once: the owners as the first that answers tells them, the
   * slots being moved from each master's own line (a node tells only its own). None answers: no
   * slot is served.
   */
  private async read(): Promise<Topology> {
    const texts = await Promise.all(this.client.nodes('master').map((node) => (node.call('CLUSTER', 'NODES') as Promise<string>).catch(() => undefined)));
    const answered = texts.filter((t): t is string => t !== undefined);
    const topology = answered.length ? parseClusterNodes(answered[0], answered.slice(1)) : UNREACHABLE;
    this.known = { at: this.now(), topology };
    if (!answered.length) return engineFailure(new Error('no master of the cluster answers'));
    return topology;
  }
}

/** HEALTHY, HEALTHY_REBALANCING while slots move, DEGRADED while a slot has no reachable master. */
export function stateOf(t: Topology): ClusterState {
  if (t.uncovered > 0) return { status: 'DEGRADED', reason: `${t.uncovered} of ${SLOTS} slots have no reachable master` };
  if (t.migratingSlots > 0) return { status: 'HEALTHY_REBALANCING', reason: `${t.migratingSlots} slots are being moved between masters` };
  return { status: 'HEALTHY', reason: '' };
}

/**
 * The topology in the text of `CLUSTER NODES` (one line per node: id, `ip:port@cport[,hostname]`,
 * flags, master id or `-`, ping, pong, epoch, link state, then its slots: `n`, `a-b`, and
 * `[n->-id]` for a slot it is moving away or `[n-<-id]` for one it takes in — on its own line only,
 * hence `others`: what the other masters said, for their own moves).
 */
export function parseClusterNodes(text: string, others: readonly string[] = []): Topology {
  const owner = new Array<RedisNode | undefined>(SLOTS).fill(undefined);
  const moving = new Set<number>();
  const replicasOf = new Map<string, RedisNode[]>();
  const masters: RedisNode[] = [];
  for (const line of text.split('\n')) {
    const [id, endpoint, flagText, masterId, , , , , ...slots] = line.trim().split(' ');
    if (!id || !endpoint || !flagText) continue;
    const flags = new Set(flagText.split(','));
    // `fail?`: one node's doubt, not the cluster's verdict (`fail`), which is when Redis stops serving the slots too
    if (flags.has('fail') || flags.has('noaddr') || flags.has('handshake')) continue;
    const node = { id, address: endpoint.split('@')[0].split(',')[0] };
    if (flags.has('slave')) {
      replicasOf.set(masterId, [...replicasOf.get(masterId) ?? [], node]);
      continue;
    }
    if (!flags.has('master')) continue;
    let serves = false;
    for (const s of slots) {
      if (s.startsWith('[')) continue;
      const [from, to = from] = s.split('-').map(Number);
      for (let slot = from; slot <= to; slot++) owner[slot] = node;
      serves = true;
    }
    if (serves) masters.push(node);
  }
  for (const t of [text, ...others]) for (const m of t.matchAll(/\[(\d+)->-/g)) moving.add(Number(m[1]));
  const uncovered = owner.reduce((n, o) => n + (o ? 0 : 1), 0);
  const byAddress = (x: RedisNode, y: RedisNode) => (x.address < y.address ? -1 : x.address > y.address ? 1 : 0);
  masters.sort(byAddress);
  return {
    owners: (slot) => {
      const master = owner[slot];
      return master && { master, replicas: [...replicasOf.get(master.id) ?? []].sort(byAddress) };
    },
    migrating: (slot) => moving.has(slot),
    masters, migratingSlots: moving.size, uncovered,
  };
}
