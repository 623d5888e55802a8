import { JSON_TYPE, parseMediaType, TEXT_PLAIN } from '../model/media/media-type';
import type { EventId } from '../model/event-id';
import type { EntryEvent, Services } from '../services';
import { negotiateAmong } from './negotiate';
import { headerText } from './request-headers';
import { isTrue, query } from './params';
import type { GridContext } from './route-spec';
import { type EventStream, openEventStream } from './sse';
import { formatPages, type Pages } from '../util/pages';
import { SLICE_MS } from '../util/slices';

const KEY_FORMATS = { 'application/json': 'json', 'text/plain': 'text' } as const;
const KEY_TARGETS = { json: parseMediaType(JSON_TYPE), text: parseMediaType(TEXT_PLAIN) } as const;

/** What a stream sends: an event (with its id, on a stream that has ids), or an id alone. */
export type Frame = { event: string; data: string; id?: EventId } | { id: EventId };

/**
 * A stream of the request's container: it ends when the server closes or the container shuts
 * down (`?action=shutdown`), whichever comes first — also when the shutdown came while the stream
 * was being opened, after the route's own check.
 */
export function openContainerStream(ctx: GridContext, s: Services): EventStream {
  const stream = openEventStream(ctx, [(fn) => s.server.onClosing(fn), (fn) => s.container.onStopping(fn)]);
  if (s.container.stopped) stream.close();
  return stream;
}

/** Live events that arrive while the backlog is still being sent; a stream past this is dropped. */
const MAX_HELD_EVENTS = 10_000;

/**
 * Sends `backlog` — the current state, or what a resuming client missed — holding live events
 * back until it is out, so the client sees it first and then every change. The backlog covers
 * what was told before `subscribe` ran, the live events what is told after: none comes twice.
 * Frames are made as they are sent, at the client's pace (the next one waits while the stream's
 * buffer is full), and the event loop gets a turn every slice — the held events' frames too. An
 * undefined frame stands for an item this client may not see: it costs time too.
 */
export async function withBacklog<E>(stream: EventStream, backlog: Pages<Frame | undefined> | undefined,
  subscribe: (deliver: (e: E) => void) => () => void, frameOf: (e: E) => Frame | undefined): Promise<void> {
  let held: E[] | undefined = backlog ? [] : undefined;
  let released = 0;
  stream.onClose(subscribe((e) => {
    if (!held) return sendFrame(stream, frameOf(e));
    if (held.length - released >= MAX_HELD_EVENTS) return stream.close();
    held.push(e);
  }));
  if (!backlog) return;
  let open = true;
  stream.onClose(() => { open = false; });
  let sliceStart = performance.now();
  const send = async (frame: Frame | undefined): Promise<void> => {
    sendFrame(stream, frame);
    await stream.drained();
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  };
  for await (const page of backlog) {
    for (const frame of page) {
      // a dropped stream stops reading the backlog at once
      if (!open) return;
      await send(frame);
    }
    if (!open) return;
  }
  // events told meanwhile join the queue until it is empty
  while (open && released < held!.length) {
    await send(frameOf(held![released++]));
    if (released === 1024) {
      held!.splice(0, released);
      released = 0;
    }
  }
  held = undefined;
}

function sendFrame(stream: EventStream, frame: Frame | undefined): void {
  if (!frame) return;
  if ('event' in frame) stream.send(frame.event, frame.data, frame.id);
  else stream.sendId(frame.id);
}

/** Entry events of one cache (docs/reference/data-plane.md#entry-events), the key converted to the negotiated type. */
export async function listenEntries(ctx: GridContext, s: Services): Promise<void> {
  const target = KEY_TARGETS[negotiateAmong(headerText(ctx, 'accept'), KEY_FORMATS)];
  const cache = ctx.state.cache;
  const keyOf = (key: Buffer): string => s.bulk.keyString(cache, key, target);
  // every write acknowledged before this request is in the current state
  const current = isTrue(query(ctx, 'includeCurrentState'))
    ? formatPages(s.bulk.keys(cache), -1, (key): Frame[] => [{ event: 'cache-entry-created', data: keyOf(key) }])
    : undefined;
  const stream = openContainerStream(ctx, s);
  void withBacklog<EntryEvent>(stream, current, (deliver) => s.caches.onEntryEvent(cache, deliver), (e) => ({ event: e.type, data: keyOf(e.key) }))
    .catch((err: unknown) => { ctx.state.log.warn({ err }, 'event stream failed'); stream.close(); });
}
