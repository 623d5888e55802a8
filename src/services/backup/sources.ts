import type { CacheManager } from '../../grid/cache-manager';
import type { ProtobufTypes } from '../../model/protobuf/protostream-json';
import type { CacheService } from '../cache.service';
import type { CounterService } from '../counter.service';
import type { SchemaService } from '../schema.service';
import type { TaskService } from '../tasks/task.service';

/** What backups read and restores write: the container's resources, through their services. */
export interface BackupSources {
  manager: CacheManager;
  caches: CacheService;
  counters: CounterService;
  schemas: SchemaService;
  /** The registered types (keys of archives older than the key migration are converted with them). */
  types: ProtobufTypes;
  tasks: TaskService;
}

/** A backup or restore that cannot go on; its message is recorded in the operation's detail. */
export class OperationFailure extends Error {}

/**
 * Lets other requests run between batches, so a large archive never stalls the server; then
 * stops the operation (throws the signal's reason) if it timed out or the server is stopping.
 */
export async function yieldToLoop(signal?: AbortSignal): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  signal?.throwIfAborted();
}
