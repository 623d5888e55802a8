import { formatCacheDocument } from '../model/cache-config';
import { JSON_TYPE, parseMediaType, TEXT_PLAIN } from '../model/media-type';
import type { Services } from '../services';
import { canAdminister } from '../services/authorization';
import { negotiateAmong } from './negotiate';
import { isTrue, query } from './params';
import type { GridContext } from './route-spec';
import { openEventStream } from './sse';

const CONFIG_FORMATS = { 'application/yaml': 'yaml', 'application/json': 'json', 'application/xml': 'xml' } as const;
const KEY_FORMATS = { 'application/json': 'json', 'text/plain': 'text' } as const;
const KEY_TARGETS = { json: parseMediaType(JSON_TYPE), text: parseMediaType(TEXT_PLAIN) } as const;

/**
 * Configuration changes of the container (behavior-notes §9.5), YAML unless Accept asks otherwise.
 * A cache's configuration reaches only a listener with ADMIN on that cache (its own roles when
 * secured), and its removal only a listener that could see it.
 */
export function listenConfig(ctx: GridContext, s: Services): void {
  const format = negotiateAmong(ctx.get('accept') || undefined, CONFIG_FORMATS);
  const pretty = isTrue(query(ctx, 'pretty'));
  const subject = ctx.state.subject;
  const stream = openEventStream(ctx, s.server.closing);
  const shown = new Set(s.manager.handles().filter((h) => canAdminister(subject, h)).map((h) => h.cache.name));
  if (isTrue(query(ctx, 'includeCurrentState'))) {
    for (const h of s.manager.handles()) {
      if (shown.has(h.cache.name)) stream.send('create-cache', formatCacheDocument(h.definition, h.cache.name, format, pretty));
    }
    for (const [name, def] of s.manager.templateDefinitions()) stream.send('create-template', formatCacheDocument(def, name, format, pretty));
  }
  stream.onClose(s.manager.events.add((e) => {
    if (e.type === 'create-cache' || e.type === 'update-cache') {
      const h = s.manager.find(e.name);
      if (!h || !canAdminister(subject, h)) return void shown.delete(e.name);
      shown.add(e.name);
    } else if (e.type === 'remove-cache' && !shown.delete(e.name)) {
      return;
    }
    stream.send(e.type, e.definition ? formatCacheDocument(e.definition, e.name, format, pretty) : e.name);
  }));
}

/** Entry events of one cache (behavior-notes §6.12), the key converted to the negotiated type. */
export async function listenEntries(ctx: GridContext, s: Services): Promise<void> {
  const target = KEY_TARGETS[negotiateAmong(ctx.get('accept') || undefined, KEY_FORMATS)];
  const h = ctx.state.cache;
  const cache = h.cache;
  await cache.settled();
  const keyOf = (key: Buffer): string => s.bulk.keyString(h, key, target);
  const stream = openEventStream(ctx, s.server.closing);
  if (isTrue(query(ctx, 'includeCurrentState'))) {
    for (const e of cache.entries()) stream.send('cache-entry-created', keyOf(e.key));
  }
  stream.onClose(cache.listeners.add((e) => stream.send(e.type, keyOf(e.key))));
}
