import { formatCacheDocument } from '../model/cache-config';
import type { Services } from '../services';
import { negotiateAmong } from './negotiate';
import { isTrue, query } from './params';
import type { GridContext } from './route-spec';
import { openEventStream } from './sse';

const CONFIG_FORMATS = { 'application/yaml': 'yaml', 'application/json': 'json', 'application/xml': 'xml' } as const;
const KEY_FORMATS = { 'application/json': 'json', 'text/plain': 'text' } as const;

/** Configuration changes of the container (behavior-notes §9.5), YAML unless Accept asks otherwise. */
export function listenConfig(ctx: GridContext, s: Services): void {
  const format = negotiateAmong(ctx.get('accept') || undefined, CONFIG_FORMATS);
  const pretty = isTrue(query(ctx, 'pretty'));
  const stream = openEventStream(ctx, s.server.closing);
  if (isTrue(query(ctx, 'includeCurrentState'))) {
    for (const h of s.manager.handles()) stream.send('create-cache', formatCacheDocument(h.definition, h.cache.name, format, pretty));
    for (const [name, def] of s.manager.templateDefinitions()) stream.send('create-template', formatCacheDocument(def, name, format, pretty));
  }
  stream.onClose(s.manager.events.add((e) => {
    stream.send(e.type, e.definition ? formatCacheDocument(e.definition, e.name, format, pretty) : e.name);
  }));
}

/** Entry events of one cache (behavior-notes §6.12), the key as text. */
export async function listenEntries(ctx: GridContext, s: Services): Promise<void> {
  negotiateAmong(ctx.get('accept') || undefined, KEY_FORMATS);
  const cache = ctx.state.cache.cache;
  await cache.settled();
  const stream = openEventStream(ctx, s.server.closing);
  if (isTrue(query(ctx, 'includeCurrentState'))) {
    for (const e of cache.entries()) stream.send('cache-entry-created', e.key.toString('utf8'));
  }
  stream.onClose(cache.listeners.add((e) => stream.send(e.type, e.key.toString('utf8'))));
}
