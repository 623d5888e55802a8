-- Backup and restore operations (spec 2 "Backup and restore requests"): their state survives restart.
-- kind: 'backup' | 'restore'; status: 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED'; detail: JSON (request, error).
CREATE TABLE operations (
  kind       TEXT NOT NULL,
  name       TEXT NOT NULL,
  status     TEXT NOT NULL,
  path       TEXT,
  detail     TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (kind, name)
);
