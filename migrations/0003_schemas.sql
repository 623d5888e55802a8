-- Protobuf schemas registered through /rest/v2/schemas or the ___protobuf_metadata cache.
CREATE TABLE schemas (
  name       TEXT PRIMARY KEY,
  content    TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
