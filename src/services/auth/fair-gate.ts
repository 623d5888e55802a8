/** One level of where a task waits: the key it shares with others there, and how many tasks may wait under that key. */
export interface GatePlace {
  key: string;
  cap: number;
}

interface Waiter {
  start: () => void;
  refuse: () => void;
}

/** Tasks waiting under one key, split by the next level of their places (leaves hold the tasks). */
class Group {
  /** Tasks waiting under this group, at any depth. */
  count = 0;
  /** Sub-groups in turn order: the one served goes to the back. */
  readonly children = new Map<string, Group>();
  /** The tasks of a leaf, oldest first. */
  readonly waiters: Waiter[] = [];

  constructor(readonly parent?: Group, readonly key = '') {}
}

/**
 * At most `slots` tasks run at once; the others wait, and take turns fairly. Each task names its
 * place as a path of keys (for a login: lane, address prefixes, user): at every level the groups
 * under one parent are served round robin, so a flood under one key — or under many keys below
 * one shared prefix — only ever takes its own turns. Each group holds at most its `cap` waiting
 * tasks, and all groups together `total`.
 *
 * A full group refuses only the group that has most: a newcomer whose sub-group holds fewer than
 * the largest sub-group minus one takes the place of the newest task of that largest one (which is
 * refused), so a few keys queuing as much as they may cannot keep every other key out. Otherwise
 * the newcomer is refused at once.
 */
export class FairGate {
  private running = 0;
  private readonly root = new Group();

  constructor(private readonly slots: number, private readonly total: number) {}

  /**
   * Runs `task` in its turn. Undefined (synchronously) when there is no room for it; the promise
   * rejects with `refusal()` when a newer task took its place before its turn came.
   */
  run<T>(place: readonly GatePlace[], task: () => Promise<T>, refusal: () => Error): Promise<T> | undefined {
    if (this.running < this.slots && this.root.count === 0) {
      this.running++;
      return this.runNow(task);
    }
    const victims = this.roomFor(place);
    if (!victims) return undefined;
    for (const group of victims) this.evictNewest(group);
    return new Promise<void>((start, reject) => this.enqueue(place, { start, refuse: () => reject(refusal()) })).then(() => this.runNow(task));
  }

  /** Tasks waiting now. */
  get waiting(): number {
    return this.root.count;
  }

  /**
   * The groups that each give up their newest task so that one more fits at `place`, deepest
   * level first (an eviction deep down also makes room in every group above); undefined when a
   * full level has no group with clearly more than the newcomer's own.
   */
  private roomFor(place: readonly GatePlace[]): Group[] | undefined {
    const path: Array<Group | undefined> = [this.root];
    for (const p of place) path.push(path[path.length - 1]?.children.get(p.key));
    const victims: Group[] = [];
    for (let depth = place.length; depth >= 0; depth--) {
      const group = path[depth];
      const cap = depth === 0 ? this.total : place[depth - 1].cap;
      const count = (group?.count ?? 0) - victims.length;
      if (count < cap) continue;
      if (depth === place.length || !group) return undefined; // a full leaf: its newest task is the newcomer
      const own = (path[depth + 1]?.count ?? 0) - victims.length;
      const largest = largestChild(group);
      if (!largest || largest === path[depth + 1] || largest.count <= own + 1) return undefined;
      victims.push(largest);
    }
    return victims;
  }

  private enqueue(place: readonly GatePlace[], waiter: Waiter): void {
    let group = this.root;
    group.count++;
    for (const p of place) {
      let child = group.children.get(p.key);
      if (!child) group.children.set(p.key, (child = new Group(group, p.key)));
      group = child;
      group.count++;
    }
    group.waiters.push(waiter);
  }

  /** Refuses the newest task under `group`, taken from its largest sub-group at every level. */
  private evictNewest(group: Group): void {
    let leaf = group;
    for (let next = largestChild(leaf); next; next = largestChild(leaf)) leaf = next;
    const waiter = leaf.waiters.pop();
    if (!waiter) return;
    this.uncount(leaf);
    waiter.refuse();
  }

  private async runNow<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } finally {
      this.running--;
      this.next();
    }
  }

  /** Starts the oldest task of the group whose turn it is, at every level. */
  private next(): void {
    if (this.root.count === 0) return;
    let group = this.root;
    while (group.children.size) {
      const [key, child] = group.children.entries().next().value as [string, Group];
      group.children.delete(key);
      group.children.set(key, child); // to the back of the turn order
      group = child;
    }
    const waiter = group.waiters.shift()!;
    this.uncount(group);
    this.running++;
    waiter.start();
  }

  /** One task fewer under `leaf` and its parents; groups left empty are dropped. */
  private uncount(leaf: Group): void {
    for (let g: Group | undefined = leaf; g; g = g.parent) {
      g.count--;
      if (g.count === 0 && g.parent) g.parent.children.delete(g.key);
    }
  }
}

function largestChild(group: Group): Group | undefined {
  let largest: Group | undefined;
  for (const child of group.children.values()) if (!largest || child.count > largest.count) largest = child;
  return largest;
}
