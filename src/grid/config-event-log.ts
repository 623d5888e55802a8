import { type CacheDefinition, type CacheSettings, formatCacheConfig, parseCacheConfig, toCacheSettings } from '../model/cache-config';
import { compareEventIds, type EventId } from '../model/event-id';
import type { ConfigEventRecord, ConfigEventType, Store, WriteOp } from '../store/store';
import type { Clock } from '../util/clock';
import { Listeners } from '../util/listeners';

/** A change of the container's configuration as its event stream tells it (docs/reference/management-plane.md#config-events). */
export interface ConfigEvent {
  /** Its place in the container's log: ids increase, across restarts too. */
  id: EventId;
  type: ConfigEventType;
  name: string;
  /** The new definition; for a removed cache the one it had; none for a removed template. */
  definition?: CacheDefinition;
  /** For a cache's events, the settings of `definition`: who may hear of the event depends on them. */
  settings?: CacheSettings;
}

/** What a change tells, before the log gives it its id. */
export type ConfigChange = Omit<ConfigEvent, 'id'> & { volatile?: boolean };

/** A page of the log. */
export interface ConfigEventPage {
  /** The id of its last event; undefined when it is empty (nothing more to read). */
  readonly last: EventId | undefined;
  /** Its events, once: each definition is read as its event is reached, so a reader can pause between them. */
  readonly events: Iterable<ConfigEvent>;
}

/** Events read from the log at once when a stream resumes: a page holds at most this many… */
const PAGE_EVENTS = 64;
/** …and, past its first event, at most this many characters of definitions. */
const PAGE_CHARS = 256 * 1024;

/**
 * The container's configuration events: each written in the commit of the change it describes,
 * told to the listeners once that commit is durable and the change applied, and kept (the newest
 * `keep`) so that a stream can be resumed after the last id its client saw.
 *
 * Ids are told in the order they are given: every event up to `newest` is durable and in the log
 * (unless deleted as too old), and every event told after a listener subscribed comes after it.
 */
export class ConfigEventLog {
  private readonly listeners = new Listeners<ConfigEvent>();
  private told: EventId;

  constructor(private readonly store: Store, private readonly clock: Clock, private readonly keep: number) {
    this.told = store.configEvents.newest();
  }

  /** The newest event told to listeners. */
  get newest(): EventId {
    return this.told;
  }

  /** Hears every event told from now on; returns the way to stop. */
  add(listener: (e: ConfigEvent) => void): () => void {
    return this.listeners.add(listener);
  }

  get size(): number {
    return this.listeners.size;
  }

  /**
   * Submits `ops` and then the change's event in one commit (the writes of one turn are one
   * transaction); resolves with the event once it is durable, to be told when the change is applied.
   */
  async record(ops: readonly WriteOp[], change: ConfigChange): Promise<ConfigEvent> {
    const { type, name, definition, settings } = change;
    const record: Omit<ConfigEventRecord, 'id'> = {
      type, name, volatile: change.volatile ?? false, createdAt: this.clock.now(),
      config: definition && formatCacheConfig(definition, undefined, 'json', false),
    };
    const id = await this.store.appendConfigEvent(ops, record, this.keep);
    return { id, type, name, definition, settings };
  }

  /** A change another node made, read from the engine with its id: told as this node's own are. */
  static eventOf(r: ConfigEventRecord): ConfigEvent {
    return toEvent(r);
  }

  /** Tells the listeners of `event`, recorded before. */
  tell(event: ConfigEvent): void {
    if (compareEventIds(event.id, this.told) > 0) this.told = event.id;
    this.listeners.emit(event);
  }

  /**
   * A page of the events after `after`, up to `upTo`, oldest first (empty past the last);
   * undefined when some event after `after` has left the log.
   */
  async page(after: EventId, upTo: EventId): Promise<ConfigEventPage | undefined> {
    const records = await this.store.configEvents.page(after, upTo, PAGE_EVENTS, PAGE_CHARS);
    if (!records) return undefined;
    return { last: records.at(-1)?.id, events: (function* () { for (const r of records) yield toEvent(r); })() };
  }

  /** At start: the previous run's volatile caches, which are gone, each with its last definition. */
  vanishedVolatileCaches(): ConfigChange[] {
    return this.store.configEvents.volatileCaches().map((r) => {
      const { name, definition, settings } = toEvent(r);
      return { type: 'remove-cache', name, definition, settings, volatile: true };
    });
  }
}

function toEvent(r: ConfigEventRecord): ConfigEvent {
  if (r.config === undefined) return { id: r.id, type: r.type, name: r.name };
  const definition = parseCacheConfig(r.config, 'json');
  return { id: r.id, type: r.type, name: r.name, definition, settings: r.type.endsWith('-cache') ? toCacheSettings(definition) : undefined };
}
