-- Users of the built-in realm: only slow salted hashes and what Digest needs, never the password.
CREATE TABLE users (
  name          TEXT PRIMARY KEY,
  password_hash TEXT NOT NULL,
  digest_md5    TEXT NOT NULL,
  digest_sha256 TEXT NOT NULL,
  roles         TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);

-- Cache and template definitions, as the declarative JSON the server writes back out.
CREATE TABLE caches (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  config     TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE templates (
  name       TEXT PRIMARY KEY,
  config     TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- Entries of caches with a persistence store. Times are epoch ms; -1 means "not set".
CREATE TABLE entries (
  cache_id     INTEGER NOT NULL,
  key          BLOB NOT NULL,
  value        BLOB NOT NULL,
  value_type   TEXT,
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL,
  lifespan     INTEGER NOT NULL,
  max_idle     INTEGER NOT NULL,
  expires_at   INTEGER,
  PRIMARY KEY (cache_id, key)
) WITHOUT ROWID;

CREATE INDEX entries_expiry ON entries (cache_id, expires_at) WHERE expires_at IS NOT NULL;
