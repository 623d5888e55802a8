import { defineError } from './define-error';

/** Cache-level cross-site call on a cache without `backups` (docs/reference/management-plane.md#cross-site). */
export class NoBackupSitesError extends defineError({
  code: 'NO_BACKUP_SITES', status: 404,
  text: (cache: string) => `Cache '${cache}' does not have backup sites.`,
}) {}

export class UnknownBackupSiteError extends defineError({
  code: 'UNKNOWN_BACKUP_SITE', status: 404,
  text: (cache: string, site: string) => `Cache '${cache}' does not backup to site '${site}'`,
}) {}

/** `?action=set-state-transfer-mode` with a mode other than MANUAL or AUTO (upper-cased, as the original's valueOf sees it). */
export class InvalidStateTransferModeError extends defineError({
  code: 'INVALID_MODE', status: 400,
  text: (mode: string) => `No enum constant org.infinispan.configuration.cache.XSiteStateTransferMode.${mode}`,
}) {}

export class SiteOperationFailedError extends defineError({
  code: 'SITE_OPERATION_FAILED', status: 500, ispn: 'ISPN012047',
  text: (site: string, status: string) => `Site operation on '${site}' failed: '${status}'`,
}) {}
