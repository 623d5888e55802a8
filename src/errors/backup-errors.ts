import { defineError } from './define-error';

/** Backups and restores (docs/reference/management-plane.md#backups-and-restores). */

/** POST of a backup or restore name already used, in any state: 409 with no body. */
export class OperationExistsError extends defineError({ code: 'OPERATION_EXISTS', status: 409 }) {}

/**
 * A backup whose archive file exists already where it would be written (an archive of another
 * name, e.g. on a file system that ignores case, or a file grid did not write): never replaced.
 */
export class ArchiveExistsError extends defineError({
  code: 'ARCHIVE_EXISTS', status: 409,
  text: (file: string) => `The backup archive '${file}' exists already in that directory`,
}) {}

/** No backup or restore of that name: 404 with no body. */
export class OperationNotFoundError extends defineError({ code: 'OPERATION_NOT_FOUND', status: 404 }) {}

/** `directory` of a backup request that is not an existing directory. */
export class NotADirectoryError extends defineError({
  code: 'NOT_A_DIRECTORY', status: 400, ispn: 'ISPN012038',
  text: (dir: string) => `'${dir}' must be a directory`,
}) {}

/**
 * A restore `location` outside the backup roots, on a special file system or not a regular file:
 * one answer whatever is there, so it never tells whether a path outside the roots exists.
 */
export class RestoreLocationError extends defineError({
  code: 'INVALID_RESTORE_LOCATION', status: 400,
  text: (location: string) => `'${location}' must be a regular file in the data directory or a configured backup root`,
}) {}

/** A resource selector key other than caches, templates (cache-configs), counters, proto-schemas, tasks. */
export class UnknownResourceTypeError extends defineError({
  code: 'UNKNOWN_RESOURCE_TYPE', status: 400,
  text: (key: string) => `Type with name '${key}' does not exist`,
}) {}

/** A selector value that is not an array of names, or a request body that is not a JSON object. */
export class InvalidBackupRequestError extends defineError({
  code: 'INVALID_BACKUP_REQUEST', status: 400,
  text: (detail: string) => detail,
  summary: 'what is wrong with the request: a selector that is not an array of names, a body that is not a JSON object',
}) {}

/** HEAD/GET of a backup that failed. */
export class BackupFailedError extends defineError({ code: 'BACKUP_FAILED', status: 500, ispn: 'ISPN012042', text: () => 'Backup failed' }) {}

/** HEAD of a restore that failed. */
export class RestoreFailedError extends defineError({ code: 'RESTORE_FAILED', status: 500, ispn: 'ISPN012039', text: () => 'Restore failed' }) {}

/** DELETE of a restore that failed (the original's answer, docs/reference/management-plane.md#restores). */
export class BackupDeleteFailedError extends defineError({
  code: 'BACKUP_DELETE_FAILED', status: 500, ispn: 'ISPN012041', text: () => 'Backup delete failed',
}) {}

/** An archive refused before anything is written: hostile, malformed or not ours (400). */
export class InvalidArchiveError extends defineError({
  code: 'INVALID_ARCHIVE', status: 400,
  text: (detail: string) => `Invalid backup archive: ${detail}`,
}) {}

/** An upload larger than the configured limit (400, nothing written). */
export class ArchiveTooLargeError extends defineError({
  code: 'ARCHIVE_TOO_LARGE', status: 400,
  text: (limit: number) => `Backup archive larger than ${limit} bytes`,
}) {}
