import type { StoredEntry } from '../model/stored-entry';

/** Row shapes the store hands out: plain values, no behaviour. Times are epoch ms, -1 = not set. */
export type { StoredEntry };

/** A key as the keys index holds it (migration 0014), with when its row expires; null: never. */
export interface KeyRow {
  key: Buffer;
  expiresAt: number | null;
}

export interface CacheRecord {
  id: number;
  name: string;
  /** Declarative configuration, as the JSON the server writes back out. */
  config: string;
  createdAt: number;
  /** Created with the VOLATILE flag: only where the records are the cluster's (the redis engine), which then drops it when the cluster starts again. */
  volatile?: boolean;
}

export interface TemplateRecord {
  name: string;
  config: string;
  createdAt: number;
}

/** What a configuration event may say (docs/reference/management-plane.md#config-events). */
export type ConfigEventType = 'create-cache' | 'update-cache' | 'remove-cache' | 'create-template' | 'update-template' | 'remove-template';

/** One configuration event of the container's log (migration 0015). */
export interface ConfigEventRecord {
  /** Its place in the log, as the event stream's `id:` carries it (src/model/event-id.ts). */
  id: string;
  type: ConfigEventType;
  name: string;
  /** A cache created with the VOLATILE flag. */
  volatile: boolean;
  /** The definition (JSON): the new one; a removed cache's last one; undefined for a removed template. */
  config: string | undefined;
  createdAt: number;
}

export interface CounterRecord {
  name: string;
  /** The definition, as the JSON `GET /counters/{name}/config` answers. */
  config: string;
  value: bigint;
  updatedAt: number;
  createdAt: number;
}

export interface SchemaRecord {
  name: string;
  content: string;
  createdAt: number;
  updatedAt: number;
}

export interface RoleRecord {
  name: string;
  permissions: string[];
  description: string;
}

/** A principal (user or group name) mapped to roles; without a mapping a principal is its own role. */
export interface PrincipalRolesRecord {
  principal: string;
  roles: string[];
}

export interface LoggerRecord {
  name: string;
  level?: string;
  appenders?: string[];
}

export interface TaskRecord {
  name: string;
  script: string;
  createdAt: number;
  updatedAt: number;
}

export interface OperationRecord {
  kind: 'backup' | 'restore';
  name: string;
  status: 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED';
  /** The archive (backups) or the uploaded/located archive (restores). */
  path: string | null;
  /** JSON: the request (resources, directory) and, when failed, the error. */
  detail: string;
  createdAt: number;
  updatedAt: number;
}

export interface XSiteRecord {
  cache: string;
  site: string;
  status: 'online' | 'offline';
  mode: 'MANUAL' | 'AUTO';
  afterFailures: number;
  minWait: number;
}

export interface UserRecord {
  name: string;
  passwordHash: string;
  /** Digest HA1 values as stored: sealed (AES-256-GCM), '' when none is kept (Basic-only). */
  digestMd5: string;
  digestSha256: string;
  roles: string[];
  createdAt: number;
  updatedAt: number;
}

export type DigestUpdate = Pick<UserRecord, 'name' | 'digestMd5' | 'digestSha256'>;

/** Absolute expiry of an entry, or null when it can never expire. */
export function expiresAt(e: Pick<StoredEntry, 'created' | 'lastUsed' | 'lifespan' | 'maxIdle'>): number | null {
  const byLifespan = e.lifespan >= 0 ? e.created + e.lifespan : Infinity;
  const byIdle = e.maxIdle >= 0 ? e.lastUsed + e.maxIdle : Infinity;
  const at = Math.min(byLifespan, byIdle);
  return at === Infinity ? null : at;
}
