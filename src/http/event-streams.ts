import { formatCacheDocument } from '../model/cache-config';
import { JSON_TYPE, parseMediaType, TEXT_PLAIN } from '../model/media/media-type';
import type { Services } from '../services';
import { canAdminister } from '../services/auth/authorization';
import { negotiateAmong } from './negotiate';
import { headerText } from './request-headers';
import { isTrue, query } from './params';
import type { GridContext } from './route-spec';
import { type EventStream, openEventStream } from './sse';
import { formatPages, type Pages, pagesOf } from '../util/pages';
import { inSlices } from '../util/slices';

const CONFIG_FORMATS = { 'application/yaml': 'yaml', 'application/json': 'json', 'application/xml': 'xml' } as const;
const KEY_FORMATS = { 'application/json': 'json', 'text/plain': 'text' } as const;
const KEY_TARGETS = { json: parseMediaType(JSON_TYPE), text: parseMediaType(TEXT_PLAIN) } as const;

/**
 * A stream of the request's container: it ends when the server closes or the container shuts
 * down (`?action=shutdown`), whichever comes first — also when the shutdown came while the stream
 * was being opened, after the route's own check.
 */
function openContainerStream(ctx: GridContext, s: Services): EventStream {
  const stream = openEventStream(ctx, [(fn) => s.server.onClosing(fn), (fn) => s.container.onStopping(fn)]);
  if (s.container.stopped) stream.close();
  return stream;
}

/** Live events that arrive while the current state is still being sent; a stream past this is dropped. */
const MAX_HELD_EVENTS = 10_000;

/**
 * Sends the current state in slices (it grows with stored state), holding live events back until
 * it is out, so the client sees the state first and then every change.
 */
async function withCurrentState(stream: EventStream, current: Iterable<[string, string]> | Pages<[string, string]> | undefined, subscribe: (deliver: (event: string, data: string) => void) => () => void): Promise<void> {
  let held: Array<[string, string]> | undefined = current ? [] : undefined;
  stream.onClose(subscribe((event, data) => {
    if (!held) return stream.send(event, data);
    if (held.length >= MAX_HELD_EVENTS) return stream.close();
    held.push([event, data]);
  }));
  if (!current) return;
  let open = true;
  stream.onClose(() => { open = false; });
  await inSlices(whileOpen(pagesOf(current), () => open), ([event, data]) => stream.send(event, data));
  for (const [event, data] of held!) stream.send(event, data);
  held = undefined;
}

/** The items of `pages` while `open()` holds: a dropped stream stops reading the cache at once. */
async function* whileOpen<T>(pages: Pages<T>, open: () => boolean): Pages<T> {
  for await (const page of pages) {
    if (!open()) return;
    yield (function* () {
      for (const item of page) {
        if (!open()) return;
        yield item;
      }
    })();
  }
}

/**
 * Configuration changes of the container (docs/reference/management-plane.md#config-events), YAML unless Accept asks otherwise.
 * A cache's configuration reaches only a listener with ADMIN on that cache (its own roles when
 * secured), and its removal only a listener that could see it.
 */
export function listenConfig(ctx: GridContext, s: Services): void {
  const format = negotiateAmong(headerText(ctx, 'accept'), CONFIG_FORMATS);
  const pretty = isTrue(query(ctx, 'pretty'));
  const subject = ctx.state.subject;
  const stream = openContainerStream(ctx, s);
  const shown = new Set(s.container.caches().filter((c) => canAdminister(subject, c)).map((c) => c.name));
  function* current(): Generator<[string, string]> {
    for (const c of s.container.caches()) {
      if (shown.has(c.name)) yield ['create-cache', s.caches.documentOf(c, format, pretty)];
    }
    for (const [name, def] of s.container.templateDefinitions()) yield ['create-template', formatCacheDocument(def, name, format, pretty)];
  }
  // not awaited: the response (headers, then events) starts while the current state is sent
  void withCurrentState(stream, isTrue(query(ctx, 'includeCurrentState')) ? current() : undefined, (deliver) => s.container.onConfigEvent((e) => {
    if (e.type === 'create-cache' || e.type === 'update-cache') {
      const c = s.caches.find(e.name);
      if (!c || !canAdminister(subject, c)) return void shown.delete(e.name);
      shown.add(e.name);
    } else if (e.type === 'remove-cache' && !shown.delete(e.name)) {
      return;
    }
    deliver(e.type, e.definition ? formatCacheDocument(e.definition, e.name, format, pretty) : e.name);
  })).catch((err: unknown) => { ctx.state.log.warn({ err }, 'event stream failed'); stream.close(); });
}

/** Entry events of one cache (docs/reference/data-plane.md#entry-events), the key converted to the negotiated type. */
export async function listenEntries(ctx: GridContext, s: Services): Promise<void> {
  const target = KEY_TARGETS[negotiateAmong(headerText(ctx, 'accept'), KEY_FORMATS)];
  const cache = ctx.state.cache;
  const keyOf = (key: Buffer): string => s.bulk.keyString(cache, key, target);
  // every write acknowledged before this request is in the current state
  const current = isTrue(query(ctx, 'includeCurrentState'))
    ? formatPages(s.bulk.keys(cache), -1, (key): Array<[string, string]> => [['cache-entry-created', keyOf(key)]])
    : undefined;
  const stream = openContainerStream(ctx, s);
  void withCurrentState(stream, current,
    (deliver) => s.caches.onEntryEvent(cache, (e) => deliver(e.type, keyOf(e.key))))
    .catch((err: unknown) => { ctx.state.log.warn({ err }, 'event stream failed'); stream.close(); });
}
