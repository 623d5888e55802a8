import { GridError } from './grid-error';

/** Cache-level cross-site call on a cache without `backups` (docs/reference/management-plane.md#cross-site). */
export class NoBackupSitesError extends GridError {
  constructor(cache: string) { super(404, 'NO_BACKUP_SITES', `Cache '${cache}' does not have backup sites.`); }
}

export class UnknownBackupSiteError extends GridError {
  constructor(cache: string, site: string) { super(404, 'UNKNOWN_BACKUP_SITE', `Cache '${cache}' does not backup to site '${site}'`); }
}

/** `?action=set-state-transfer-mode` with a mode other than MANUAL or AUTO (upper-cased, as the original's valueOf sees it). */
export class InvalidStateTransferModeError extends GridError {
  constructor(mode: string) { super(400, 'INVALID_MODE', `No enum constant org.infinispan.configuration.cache.XSiteStateTransferMode.${mode}`); }
}

export class SiteOperationFailedError extends GridError {
  constructor(site: string, status: string) { super(500, 'SITE_OPERATION_FAILED', `ISPN012047: Site operation on '${site}' failed: '${status}'`); }
}
