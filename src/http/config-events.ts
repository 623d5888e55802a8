import { InvalidLastEventIdError } from '../errors';
import { type ConfigFormat, formatCacheDocument } from '../model/cache-config';
import { compareEventIds, type EventId, parseEventId } from '../model/event-id';
import { hasPermission } from '../model/security/permissions';
import type { ConfigChange, Services, Subject } from '../services';
import { settingsMask } from '../services/auth/authorization';
import type { Pages } from '../util/pages';
import { type Frame, openContainerStream, withBacklog } from './event-streams';
import { negotiateAmong } from './negotiate';
import { isTrue, query } from './params';
import { headerText } from './request-headers';
import type { GridContext } from './route-spec';

const CONFIG_FORMATS = { 'application/yaml': 'yaml', 'application/json': 'json', 'application/xml': 'xml' } as const;

/** A configuration event, or one of the changes that make the current state (which have no id). */
type Change = ConfigChange & { id?: EventId };

/**
 * Configuration changes of the container (docs/reference/management-plane.md#config-events), YAML
 * unless Accept asks otherwise, each with its id. A client that sends the last id it received
 * (`Last-Event-ID`) first gets what it missed, from the container's log — or, when the log no
 * longer holds all of it, a `reset` event and the current state — then the live events. On the
 * redis engine the stream begins once this node has every change acknowledged on any node before
 * the request: its state and backlog hold them.
 */
export async function listenConfig(ctx: GridContext, s: Services): Promise<void> {
  const format = negotiateAmong(headerText(ctx, 'accept'), CONFIG_FORMATS);
  const pretty = isTrue(query(ctx, 'pretty'));
  const after = resumeAfter(ctx);
  await s.container.catchUp();
  const subject = ctx.state.subject;
  const frameOf = (e: Change): Frame | undefined => mayHear(subject, e) ? { event: e.type, data: dataOf(e, format, pretty), id: e.id } : undefined;
  const stream = openContainerStream(ctx, s);
  // read in the same turn as the subscription: the backlog ends where the live events begin
  const upTo = s.container.newestConfigEvent;
  const state = after !== undefined || isTrue(query(ctx, 'includeCurrentState')) ? s.container.configState() : undefined;
  const backlog = after !== undefined ? missedEvents(s, after, upTo, state!, frameOf) : state && currentState(state, upTo, frameOf);
  // not awaited: the response (headers, then events) starts while the backlog is sent
  void withBacklog(stream, backlog, (deliver) => s.container.onConfigEvent(deliver), frameOf)
    .catch((err: unknown) => { ctx.state.log.warn({ err }, 'event stream failed'); stream.close(); });
}

/**
 * The id a client resumes after: `Last-Event-ID`, or else the `lastEventId` parameter, which the
 * EventSource polyfill of browsers that cannot send the header (event-source-polyfill) sends
 * instead; undefined without either. 400 for something that is no id, before the stream opens.
 */
function resumeAfter(ctx: GridContext): EventId | undefined {
  const header = headerText(ctx, 'last-event-id');
  const text = header ?? query(ctx, 'lastEventId');
  if (text === undefined || text === '') return undefined;
  const id = parseEventId(text);
  if (id === undefined) throw new InvalidLastEventIdError(header === undefined ? 'lastEventId' : 'Last-Event-ID', text);
  return id;
}

/**
 * A cache's events reach only a listener with ADMIN on the cache as the event defines it (its own
 * roles when secured) — its removal too, so only a listener that could see it hears of it; a
 * template's reach every listener.
 */
function mayHear(subject: Subject, e: Change): boolean {
  if (e.type.endsWith('-template')) return true;
  return e.settings !== undefined && hasPermission(settingsMask(subject, e.settings), 'ADMIN');
}

/** A creation or update carries the whole document; a removal the name. */
function dataOf(e: Change, format: ConfigFormat, pretty: boolean): string {
  return e.definition && !e.type.startsWith('remove-') ? formatCacheDocument(e.definition, e.name, format, pretty) : e.name;
}

/** The current state as `create-cache` and `create-template` events, then the id it stands at. */
async function* currentState(state: ConfigChange[], at: EventId, frameOf: (e: Change) => Frame | undefined): Pages<Frame | undefined> {
  // each formatted when it is reached
  yield (function* () { for (const e of state) yield frameOf(e); })();
  yield [{ id: at }];
}

/**
 * The events after `after` up to `upTo`, a page of the log at a time, then `upTo` as an id alone
 * when the last event sent was not it (the client may not see every event). When the log cannot
 * give them all — `after` is older than the oldest event it keeps, or an id it never gave, or the
 * log moved past the page being read while the client read slowly — a `reset` event and `state`
 * instead: the client missed an unknown number of changes, removals among them.
 */
async function* missedEvents(s: Services, after: EventId, upTo: EventId, state: ConfigChange[],
  frameOf: (e: Change) => Frame | undefined): Pages<Frame | undefined> {
  let cursor = after;
  let lastSent: EventId | undefined;
  for (;;) {
    const page = await s.container.configEventsAfter(cursor, upTo);
    if (page === undefined) {
      yield [{ event: 'reset', data: `Events after ${after} are no longer all kept: the current configuration follows` }];
      yield* currentState(state, upTo, frameOf);
      return;
    }
    if (page.last === undefined) break;
    cursor = page.last;
    yield (function* () {
      for (const e of page.events) {
        const frame = frameOf(e);
        if (frame) lastSent = e.id;
        yield frame;
      }
    })();
  }
  if (compareEventIds(upTo, after) > 0 && lastSent !== upTo) yield [{ id: upTo }];
}
