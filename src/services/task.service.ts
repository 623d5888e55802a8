import type { CacheManager } from '../grid/cache-manager';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';

/** Server tasks (spec 2 "Server tasks", behavior-notes §14). Filled in by the backups-and-tasks issue. */
export class TaskService {
  constructor(private readonly store: Store, private readonly manager: CacheManager, private readonly clock: Clock) {}
}
