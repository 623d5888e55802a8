/**
 * What one grid node asks of the others (docs/scale-out.md, "Cluster-wide operations"), carried by
 * a container's change stream: every live node reads every entry of it in order, so an order is
 * not missed the way a pub/sub message can be.
 */
export type ClusterOrder =
  /** The named grid nodes stop (every node, when `nodes` is absent), each as its own `server?action=stop`. */
  | { kind: 'stop'; nodes?: string[] }
  /** The container shuts down (`container?action=shutdown`). */
  | { kind: 'shutdown' };

export function formatOrder(order: ClusterOrder): string {
  return JSON.stringify(order);
}

/** The order another node wrote; undefined for one this release does not know (a newer node's), which is ignored. */
export function parseOrder(text: string | undefined): ClusterOrder | undefined {
  if (text === undefined) return undefined;
  try {
    const o = JSON.parse(text) as { kind?: unknown; nodes?: unknown };
    if (o.kind === 'shutdown') return { kind: 'shutdown' };
    if (o.kind !== 'stop') return undefined;
    if (o.nodes === undefined) return { kind: 'stop' };
    return Array.isArray(o.nodes) && o.nodes.every((n) => typeof n === 'string') ? { kind: 'stop', nodes: o.nodes as string[] } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether node `name` is among those a stop order names. */
export function stopsNode(order: ClusterOrder, name: string): boolean {
  return order.kind === 'stop' && (order.nodes === undefined || order.nodes.includes(name));
}
