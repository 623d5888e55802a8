import { ConfigEventLog } from '../grid/config-event-log';
import type { CacheManager } from '../grid/cache-manager';
import type { CounterManager } from '../grid/counter-manager';
import type { CacheRecord, TemplateRecord } from '../store/store';
import type { RemoteChange, Table } from '../store/redis/replicated-records';
import type { Logger } from '../util/logger';

/** What follows the changes other nodes make to a container's records. */
export interface ChangeFollowers {
  manager: CacheManager;
  counters: CounterManager;
  schemas: { reload(): Promise<void> };
  tasks: { reload(): void };
  xsite: { reload(): void };
  roles: { reload(): void };
  /** Users changed: remembered logins are dropped. */
  usersChanged(): void;
  log: Logger;
}

/**
 * Applies another node's change to this node (docs/scale-out.md, "Records"): the store's copy has
 * it already; caches and templates are adopted one by one, every other kind of record is read
 * again by the service that holds it (the server's loggers follow the default container's changes:
 * main.ts); then the change's configuration events are told, as this
 * node tells its own.
 */
export function applyRemoteChange(change: RemoteChange, to: ChangeFollowers): void {
  const tables = new Set<Table>();
  for (const m of change.mutations) {
    tables.add(m.table);
    try {
      if (m.table === 'caches') to.manager.adoptCache(m.field, m.value === undefined ? undefined : JSON.parse(m.value) as CacheRecord);
      if (m.table === 'templates') to.manager.adoptTemplate(m.field, m.value === undefined ? undefined : JSON.parse(m.value) as TemplateRecord);
    } catch (err) {
      to.log.error({ err, [m.table]: m.field }, 'a change made by another node could not be applied');
    }
  }
  if (tables.has('counters')) to.counters.reload();
  if (tables.has('tasks')) to.tasks.reload();
  if (tables.has('xsite')) to.xsite.reload();
  if (tables.has('roles') || tables.has('principals')) to.roles.reload();
  if (tables.has('users')) to.usersChanged();
  if (tables.has('settings')) to.manager.switchesChanged();
  if (tables.has('schemas')) to.schemas.reload().catch((err: unknown) => to.log.error({ err }, 'schemas changed by another node could not be applied'));
  for (const e of change.events) to.manager.events.tell(ConfigEventLog.eventOf(e));
}
