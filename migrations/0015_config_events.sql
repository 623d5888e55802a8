-- The container's configuration events (docs/reference/management-plane.md#config-events), kept so
-- that a client can resume its event stream with `Last-Event-ID`. Each row is written in the
-- transaction of the definition change it describes; the oldest are deleted past the
-- `config-event-log` limit. AUTOINCREMENT keeps the highest id ever written (sqlite_sequence),
-- so an id is never given twice, whatever was deleted.
CREATE TABLE IF NOT EXISTS config_events (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  type       TEXT NOT NULL,
  name       TEXT NOT NULL,
  -- a cache created with the VOLATILE flag: its definition is not in `caches`
  volatile   INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  -- the definition (JSON, as `caches.config`): the new one; for a removed cache the one it had
  -- (it decides who may hear of the removal); NULL for a removed template. Last, so that reading
  -- the other columns never reads a long definition.
  config     TEXT
);
