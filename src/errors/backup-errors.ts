import { GridError } from './grid-error';

/** Backups and restores (docs/reference/management-plane.md#backups-and-restores). */

/** POST of a backup or restore name already used, in any state: 409 with no body. */
export class OperationExistsError extends GridError {
  constructor() { super(409, 'OPERATION_EXISTS', ''); }
}

/**
 * A backup whose archive file exists already where it would be written (an archive of another
 * name, e.g. on a file system that ignores case, or a file grid did not write): never replaced.
 */
export class ArchiveExistsError extends GridError {
  constructor(file: string) { super(409, 'ARCHIVE_EXISTS', `The backup archive '${file}' exists already in that directory`); }
}

/** No backup or restore of that name: 404 with no body. */
export class OperationNotFoundError extends GridError {
  constructor() { super(404, 'OPERATION_NOT_FOUND', ''); }
}

/** `directory` of a backup request that is not an existing directory. */
export class NotADirectoryError extends GridError {
  constructor(dir: string) { super(400, 'NOT_A_DIRECTORY', `ISPN012038: '${dir}' must be a directory`); }
}

/**
 * A restore `location` outside the backup roots, on a special file system or not a regular file:
 * one answer whatever is there, so it never tells whether a path outside the roots exists.
 */
export class RestoreLocationError extends GridError {
  constructor(location: string) {
    super(400, 'INVALID_RESTORE_LOCATION', `'${location}' must be a regular file in the data directory or a configured backup root`);
  }
}

/** A resource selector key other than caches, templates (cache-configs), counters, proto-schemas, tasks. */
export class UnknownResourceTypeError extends GridError {
  constructor(key: string) { super(400, 'UNKNOWN_RESOURCE_TYPE', `Type with name '${key}' does not exist`); }
}

/** A selector value that is not an array of names, or a request body that is not a JSON object. */
export class InvalidBackupRequestError extends GridError {
  constructor(detail: string) { super(400, 'INVALID_BACKUP_REQUEST', detail); }
}

/** HEAD/GET of a backup that failed. */
export class BackupFailedError extends GridError {
  constructor() { super(500, 'BACKUP_FAILED', 'ISPN012042: Backup failed'); }
}

/** HEAD of a restore that failed. */
export class RestoreFailedError extends GridError {
  constructor() { super(500, 'RESTORE_FAILED', 'ISPN012039: Restore failed'); }
}

/** DELETE of a restore that failed (the original's answer, docs/reference/management-plane.md#restores). */
export class BackupDeleteFailedError extends GridError {
  constructor() { super(500, 'BACKUP_DELETE_FAILED', 'ISPN012041: Backup delete failed'); }
}

/** An archive refused before anything is written: hostile, malformed or not ours (400). */
export class InvalidArchiveError extends GridError {
  constructor(detail: string) { super(400, 'INVALID_ARCHIVE', `Invalid backup archive: ${detail}`); }
}

/** An upload larger than the configured limit (400, nothing written). */
export class ArchiveTooLargeError extends GridError {
  constructor(limit: number) { super(400, 'ARCHIVE_TOO_LARGE', `Backup archive larger than ${limit} bytes`); }
}
