import { ForbiddenMethodError, InvalidActionError, MethodNotAllowedError, ResourceNotFoundError, MalformedPathError } from '../errors';
import type { RouteSpec } from './route-spec';

interface Node {
  literals: Map<string, Node>;
  param?: { name: string; node: Node };
  /** `*name`: the rest of the path, one segment or more (static content, docs/reference/http.md#routing). */
  rest?: { name: string; node: Node };
  routes: RouteSpec[];
  /** The same rows by method. */
  byMethod: Map<string, RouteSpec[]>;
}

export interface RouteMatch {
  route: RouteSpec;
  params: Record<string, string>;
}

const KNOWN_METHODS = new Set(['GET', 'PUT', 'POST', 'HEAD', 'DELETE', 'OPTIONS']);

function newNode(): Node {
  return { literals: new Map(), routes: [], byMethod: new Map() };
}

/**
 * Path segments as the original reads them (its resource tree, with Netty's `decodeComponent`):
 * split on the raw `/`, empty segments dropped, then each segment decoded once — `+` is a space,
 * each run of `%XX` is UTF-8 (a sequence that is not becomes U+FFFD, as Java decodes it). So `%2F`
 * stays inside its segment: `a%2Fb` names `a/b`, and `a%252Fb` names `a%2Fb`.
 */
export function splitPath(path: string): string[] {
  const out: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    out.push(raw.includes('%') || raw.includes('+') ? decodeSegment(raw) : raw);
  }
  return out;
}

const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;

function decodeSegment(raw: string): string {
  // every `%` must start an escape: a bare or short one (`%zz`, `100%`) is the client's mistake
  if (/%(?![0-9A-Fa-f]{2})/.test(raw)) throw new MalformedPathError(raw);
  return raw.replace(/\+/g, ' ').replace(ESCAPES, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}

/**
 * Matches requests against the route tables: literal segments before `:params` before `*rest`, then method
 * (403 for unknown verbs, 405 for known ones without a handler), then `?action=` (400).
 */
export class Router {
  private readonly root = newNode();

  constructor(routes: RouteSpec[]) {
    for (const r of routes) this.add(r);
  }

  match(method: string, path: string, action: string | undefined): RouteMatch {
    if (!KNOWN_METHODS.has(method)) throw new ForbiddenMethodError();
    const segments = splitPath(path);
    const params: Record<string, string> = {};
    const node = this.find(this.root, segments, 0, params);
    if (!node) throw new ResourceNotFoundError();
    const forMethod = node.byMethod.get(method);
    if (!forMethod) throw new MethodNotAllowedError();
    if (action === '') throw new InvalidActionError(true);
    const route = forMethod.find((r) => r.action === action);
    if (!route) throw new InvalidActionError(false);
    return { route, params };
  }

  private add(r: RouteSpec): void {
    let node = this.root;
    const segments = r.path.split('/').filter(Boolean);
    for (const [i, seg] of segments.entries()) {
      if (seg.startsWith('*')) {
        if (i !== segments.length - 1) throw new Error(`route ${r.path}: ${seg} must be the last segment`);
        node.rest ??= { name: seg.slice(1), node: newNode() };
        node = node.rest.node;
      } else if (seg.startsWith(':')) {
        node.param ??= { name: seg.slice(1), node: newNode() };
        if (node.param.name !== seg.slice(1)) throw new Error(`route ${r.path}: parameter :${seg.slice(1)} clashes with :${node.param.name}`);
        node = node.param.node;
      } else {
        let next = node.literals.get(seg);
        if (!next) node.literals.set(seg, (next = newNode()));
        node = next;
      }
    }
    if (node.routes.some((x) => x.method === r.method && x.action === r.action)) throw new Error(`duplicate route ${r.method} ${r.path} ${r.action ?? ''}`);
    node.routes.push(r);
    const same = node.byMethod.get(r.method);
    if (same) same.push(r);
    else node.byMethod.set(r.method, [r]);
  }

  private find(node: Node, segs: string[], i: number, params: Record<string, string>): Node | undefined {
    if (i === segs.length) return node.routes.length ? node : undefined;
    // A segment that names a literal child commits to it, as the original's resource tree does:
    // `/rest/v2/unknown` is a 404, not the legacy entry `/rest/{cache}/{key}` of a cache "v2".
    const literal = node.literals.get(segs[i]);
    if (literal) return this.find(literal, segs, i + 1, params);
    if (node.param) {
      const found = this.find(node.param.node, segs, i + 1, params);
      if (found) {
        params[node.param.name] = segs[i];
        return found;
      }
    }
    if (!node.rest?.node.routes.length) return undefined;
    params[node.rest.name] = segs.slice(i).join('/');
    return node.rest.node;
  }
}
