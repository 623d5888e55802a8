-- Counter definitions (every storage mode) and the values of PERSISTENT counters.
-- value is a 64-bit integer; updated_at (epoch ms) drives strong-counter lifespan.
CREATE TABLE counters (
  name       TEXT PRIMARY KEY,
  config     TEXT NOT NULL,
  value      INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
