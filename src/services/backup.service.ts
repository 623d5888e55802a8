import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';

/** Backups and restores (spec 2, behavior-notes §10). Filled in by the backups issue. */
export class BackupService {
  constructor(private readonly store: Store, private readonly dataDir: string, private readonly clock: Clock, private readonly log: Logger) {}
}
