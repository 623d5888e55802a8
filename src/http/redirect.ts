import { HolderNotRunningError } from '../errors';
import type { GridContext } from './route-spec';

/** A grid node that holds what a request asks for (an archive, an operation, its own report), as membership lists it. */
export interface NodeAddress {
  name: string;
  /** `host:port` of its HTTP listener. */
  address: string;
  /** `host:port` of its TLS listener, when it has one. */
  tlsAddress?: string;
  live: boolean;
}

/**
 * What another node holds is that node's to serve (docs/scale-out.md, "Backups and restores",
 * "Membership"): 307 to the same path there, the method kept — over TLS when the request came over
 * TLS and the node has a TLS listener; 503 while the node does not run.
 */
export function redirectToNode(ctx: GridContext, node: NodeAddress): void {
  if (!node.live) throw new HolderNotRunningError(node.name, node.address);
  const target = ctx.secure && node.tlsAddress ? `https://${node.tlsAddress}` : `http://${node.address}`;
  ctx.status = 307;
  ctx.set('Location', `${target}${ctx.originalUrl}`);
}
