import { ConfigError } from '../config/server-config-error';
import { excerpt, UnknownNodeError } from '../errors';
import type { ClusterOrder } from './cluster-orders';
import type { MemberRecord, RedisMemberRegistry } from '../store/redis/member-registry';
import type { NodeCalls } from '../store/redis/node-calls';
import type { CacheStatistics } from './cache.service';
import type { SearchStatistics } from './search-statistics';
import type { Logger } from '../util/logger';
import type { NodeInfo } from './server/node-info';

/** How often a node on the redis engine announces itself (docs/scale-out.md, "Membership"). */
export const HEARTBEAT_MS = 2_500;
/** How long an announcement keeps a node listed: two heartbeats, so a node killed leaves within 5 s and one late beat is forgiven. */
export const MEMBER_TTL_MS = 2 * HEARTBEAT_MS;
/** How long a clean stop waits for its removal from the members. */
const LEAVE_WAIT_MS = 2_000;
/** How long a question to the other nodes waits for their answers (docs/scale-out.md, "Cluster-wide statistics"). */
const ANSWER_WAIT_MS = 2_000;
/** The question "apply every change of this container committed until now": body `{container}`, answered (`{}`) once done. */
const CATCH_UP = 'catch-up';

/**
 * One live grid node, as the cluster resources of the API show it: what it announces
 * (`MemberRecord`) but its process id and cluster name; its memory now for this node, at its last
 * heartbeat for another.
 */
export type ClusterMember = Omit<MemberRecord, 'id' | 'cluster'>;

/**
 * The figures of a cache each node counts for itself and the cluster-wide resources combine
 * (docs/scale-out.md, "Cluster-wide statistics"). A figure's name is the topic of the question
 * for it; the body is `{container, cache}`, the answer the figure as JSON.
 */
export interface NodeFigures {
  /** The cache's operation counters (the details' `stats`). */
  'cache-statistics': CacheStatistics;
  /** Its query timings and index counts (`search/stats?scope=cluster`). */
  'search-statistics': SearchStatistics;
}

/** How this node reads each figure of a cache of one of its containers (by container name); undefined when it has no such cache. */
export type FigureReaders = {
  [F in keyof NodeFigures]: (container: string, cache: string) => NodeFigures[F] | undefined | Promise<NodeFigures[F] | undefined>;
};

/** The cluster as one node sees it at one moment. */
export interface ClusterView {
  /** `cluster-name`. */
  name: string;
  /** The live members, the coordinator first (the oldest by start time; ties by name), this node among them. */
  members: ClusterMember[];
  /** This node's name. */
  self: string;
  /** False on the SQLite engine: a cluster of one without transport (health counts 0 nodes, as the original's standalone server). */
  clustered: boolean;
}

/** The redis engine's part: where members are recorded, this process's id there, and how to reach the other nodes. */
export interface MemberRegistration {
  registry: Pick<RedisMemberRegistry, 'announce' | 'list' | 'leave'>;
  id: string;
  /** Tells every other node an order, through the default container's change stream (docs/scale-out.md, "Cluster-wide operations"). */
  tell(order: ClusterOrder): Promise<void>;
  /** Questions to the other nodes and their answers. */
  calls: Pick<NodeCalls, 'open' | 'ask'>;
}

export interface ClusterSettings {
  clusterName: string;
  version: string;
  startedAt: number;
  /** The default container's status, told with each heartbeat. */
  status: () => string;
  /** Absent on the SQLite engine: the node is the whole cluster. */
  registration?: MemberRegistration;
  /** This node's figures, for the other nodes' questions. */
  figures: FigureReaders;
  /** Resolves once this node has applied every change of the container committed before the call; undefined when there is nothing to wait for. */
  catchUp: (container: string) => Promise<void> | undefined;
  log: Logger;
}

/**
 * The grid nodes that make up the cluster (docs/scale-out.md, "Membership"). On the SQLite engine
 * this node alone; on the redis engine every node announces itself every 2.5 s with a deadline of
 * 5 s on Redis's clock, and the members are read from the cluster at each request, so every node
 * lists the same nodes and names the same coordinator.
 */
export class ClusterService {
  private timer: NodeJS.Timeout | undefined;
  private left = false;
  private trouble: string | undefined;
  /** The live nodes that last did not answer a question in time (logged when it changes). */
  private silent = '';

  constructor(private readonly node: NodeInfo, private readonly settings: ClusterSettings) {}

  get name(): string {
    return this.settings.clusterName;
  }

  /** The live members now; on the redis engine one read of the cluster (a 503 when Redis cannot answer). */
  async view(): Promise<ClusterView> {
    const reg = this.settings.registration;
    const self = this.self();
    const others = reg ? (await reg.registry.list()).filter((m) => m.name !== self.name).map(toMember) : [];
    const members = [self, ...others].sort((a, b) => a.startedAt - b.startedAt || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { name: this.settings.clusterName, members, self: self.name, clustered: reg !== undefined };
  }

  /**
   * Stops the nodes named, or every node when none is (docs/scale-out.md, "Cluster-wide operations"):
   * the other nodes are told through the cluster and each stops as its own `server?action=stop`
   * would; answers whether this node is among them — it stops itself once it has answered. A name
   * no live node carries stops none (404 with the name).
   */
  async stop(names: readonly string[]): Promise<boolean> {
    const named = [...new Set(names)];
    const { members, self } = await this.view();
    const unknown = named.filter((n) => !members.some((m) => m.name === n));
    if (unknown.length) throw new UnknownNodeError(unknown.map((n) => `'${excerpt(n)}'`).join(' or '));
    const reg = this.settings.registration;
    if (reg && (named.length === 0 || named.some((n) => n !== self))) await reg.tell(named.length ? { kind: 'stop', nodes: named } : { kind: 'stop' });
    return named.length === 0 || named.includes(self);
  }

  /**
   * Figure `figure` of cache `cache` of container `container` on every other live node that has it
   * (docs/scale-out.md, "Cluster-wide statistics"): asked of them now, each answering with its
   * figure as it is; a node that has not answered within ANSWER_WAIT_MS is left out (logged).
   * None on the SQLite engine. The caller combines them with this node's own.
   */
  async othersFigures<F extends keyof NodeFigures>(figure: F, container: string, cache: string): Promise<Array<NodeFigures[F]>> {
    const reg = this.settings.registration;
    if (!reg) return [];
    const others = (await reg.registry.list()).map((m) => m.name).filter((n) => n !== this.node.name);
    const answers = await reg.calls.ask(figure, JSON.stringify({ container, cache }), others, ANSWER_WAIT_MS);
    this.noteSilent(others.filter((n) => !answers.has(n)).join(', '));
    return [...answers.values()].flatMap((a) => (a === undefined ? [] : [JSON.parse(a) as NodeFigures[F]]));
  }

  /**
   * Resolves once every other live node has applied the changes of container `container`
   * committed before the call (docs/scale-out.md, "Cluster-wide settings"), so a setting changed
   * through this node is in force on all of them when the request that changed it is answered, as
   * the original's replicated state is; a node silent for ANSWER_WAIT_MS is not waited for (logged).
   * At once on the SQLite engine.
   */
  async spread(container: string): Promise<void> {
    const reg = this.settings.registration;
    if (!reg) return;
    const others = (await reg.registry.list()).map((m) => m.name).filter((n) => n !== this.node.name);
    const answers = await reg.calls.ask(CATCH_UP, JSON.stringify({ container }), others, ANSWER_WAIT_MS);
    this.noteSilent(others.filter((n) => !answers.has(n)).join(', '));
  }

  /**
   * Announces this node and keeps announcing it (redis engine). A live node of that name, or live
   * nodes of another cluster name, stop the start (ConfigError: exit 2). A name held by a node that
   * stops beating (killed a moment ago, say) is taken once its deadline passes (at most 5 s).
   */
  async join(): Promise<void> {
    const reg = this.settings.registration;
    if (!reg) return;
    // answering before it is listed: a node that lists this one may ask at once
    await reg.calls.open((topic, body) => this.answer(topic, body));
    let outcome = await reg.registry.announce(this.record(reg.id), MEMBER_TTL_MS);
    if (outcome.kind === 'clash') {
      const wait = outcome.remainingMs + 50;
      await new Promise((resolve) => setTimeout(resolve, wait));
      outcome = await reg.registry.announce(this.record(reg.id), MEMBER_TTL_MS);
    }
    if (outcome.kind === 'clash') {
      const { holder } = outcome;
      throw new ConfigError(`the node name '${holder.name}' is taken by a live node of this cluster (${holder.address}, started ${new Date(holder.startedAt).toISOString()}): `
        + 'give this node a name of its own with --node-name (or node-name in its configuration file)');
    }
    if (outcome.kind === 'cluster') {
      const { member } = outcome;
      throw new ConfigError(`this node's cluster-name is '${this.settings.clusterName}', but the live nodes of this grid on the Redis Cluster are named '${member.cluster}' `
        + `(${member.name} at ${member.address}): start it with --cluster-name ${member.cluster} (or cluster-name in its configuration file), or give it an engine.namespace of its own`);
    }
    this.schedule(Date.now());
  }

  /** A clean stop: this node leaves the members at once and beats no more. */
  async leave(): Promise<void> {
    const reg = this.settings.registration;
    if (!reg || this.left) return;
    this.left = true;
    clearTimeout(this.timer);
    // bounded: a stop must not wait on a cluster that does not answer (the deadline removes the node then)
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${LEAVE_WAIT_MS} ms`)), LEAVE_WAIT_MS); });
    await Promise.race([reg.registry.leave(this.node.name, reg.id), late]).catch((err: unknown) => {
      this.settings.log.warn({ err }, 'could not leave the cluster\'s members; the others drop this node when its deadline passes');
    }).finally(() => clearTimeout(timer));
  }

  /** Logs the live nodes that did not answer in time, when they are not the ones that did not last time. */
  private noteSilent(silent: string): void {
    if (silent !== this.silent && silent) this.settings.log.warn({ nodes: silent, waitedMs: ANSWER_WAIT_MS }, 'live nodes did not answer in time: they were not waited for, and their figures are left out');
    this.silent = silent;
  }

  /** What this node answers another's question: JSON, or undefined for nothing to say. */
  private async answer(topic: string, body: string): Promise<string | undefined> {
    if (topic === CATCH_UP) {
      await this.settings.catchUp((JSON.parse(body) as { container: string }).container);
      return '{}';
    }
    if (!Object.hasOwn(this.settings.figures, topic)) return undefined;
    const { container, cache } = JSON.parse(body) as { container: string; cache: string };
    const value = await this.settings.figures[topic as keyof NodeFigures](container, cache);
    return value && JSON.stringify(value);
  }

  /** The next heartbeat, HEARTBEAT_MS after the start of the last one. */
  private schedule(lastStart: number): void {
    if (this.left) return;
    this.timer = setTimeout(() => void this.beat(), Math.max(0, lastStart + HEARTBEAT_MS - Date.now()));
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    const reg = this.settings.registration!;
    const start = Date.now();
    const { log } = this.settings;
    try {
      const outcome = await reg.registry.announce(this.record(reg.id), MEMBER_TTL_MS);
      const problem = outcome.kind === 'clash' ? `the name was taken by another node (${outcome.holder.address}) while this one was not heard from`
        : outcome.kind === 'cluster' ? `live nodes carry another cluster name ('${outcome.member.cluster}')` : undefined;
      if (problem && problem !== this.trouble) log.error({ node: this.node.name }, `this node is not listed among the cluster's members: ${problem}`);
      else if (!problem && this.trouble) log.info({ node: this.node.name }, 'this node is listed among the cluster\'s members again');
      this.trouble = problem;
    } catch (err) {
      if (!this.trouble) log.warn({ err }, 'heartbeat failed: the other nodes stop listing this node if it stays so for 5 s');
      this.trouble = 'heartbeat failed';
    }
    this.schedule(start);
  }

  private self(): ClusterMember {
    const mem = process.memoryUsage();
    const { version, startedAt, status } = this.settings;
    return { name: this.node.name, address: this.node.address, version, startedAt, status: status(), memoryUsed: mem.heapUsed, memoryAvailable: mem.heapTotal - mem.heapUsed };
  }

  private record(id: string): MemberRecord {
    return { ...this.self(), id, cluster: this.settings.clusterName };
  }
}

function toMember({ id: _id, cluster: _cluster, ...member }: MemberRecord): ClusterMember {
  return member;
}
