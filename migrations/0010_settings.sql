-- Server-wide settings that tools working on the same data directory must follow (for example
-- `auth-mechanisms`, so `grid user` stores no Digest HA1 while the server runs Basic-only).
CREATE TABLE IF NOT EXISTS settings (
  name       TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
