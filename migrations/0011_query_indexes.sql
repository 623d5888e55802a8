-- Query indexes of indexed caches (docs/query.md "Index layout"). Written in the same transaction
-- as the entry they index; memory-only caches keep the same tables in an in-memory database.
-- Idempotent (IF NOT EXISTS), like 0010: tests rewind schema_migrations to simulate older data dirs.

-- The indexed entity types of each cache and their indexed field paths (`address.street`).
CREATE TABLE IF NOT EXISTS index_types (
  type_id  INTEGER PRIMARY KEY,
  cache_id INTEGER NOT NULL,
  name     TEXT NOT NULL,
  UNIQUE (cache_id, name)
);

CREATE TABLE IF NOT EXISTS index_fields (
  field_id INTEGER PRIMARY KEY,
  type_id  INTEGER NOT NULL,
  path     TEXT NOT NULL,
  UNIQUE (type_id, path)
);

-- One document per indexed entry. `expires_at` is the entry's, so expired documents are filtered
-- and purged exactly as the entries are.
CREATE TABLE IF NOT EXISTS index_docs (
  doc_id     INTEGER PRIMARY KEY,
  cache_id   INTEGER NOT NULL,
  type_id    INTEGER NOT NULL,
  key        BLOB NOT NULL,
  expires_at INTEGER,
  has_text   INTEGER NOT NULL DEFAULT 0,
  UNIQUE (cache_id, key)
);

CREATE INDEX IF NOT EXISTS index_docs_type ON index_docs (type_id);
CREATE INDEX IF NOT EXISTS index_docs_expiry ON index_docs (cache_id, expires_at) WHERE expires_at IS NOT NULL;

-- Searchable, sortable and aggregable values, one row per value (repeated fields give several):
-- the B-tree (field_id, value) answers equality, ranges, prefixes, sorting and grouping.
-- `value` has no declared type, so integers, reals and text keep their own types and order.
CREATE TABLE IF NOT EXISTS index_values (
  field_id INTEGER NOT NULL,
  value,
  doc_id   INTEGER NOT NULL,
  PRIMARY KEY (field_id, value, doc_id)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS index_values_doc ON index_values (doc_id, field_id);

-- Analyzed (@Text) values: the analyzer runs in the server; each token is stored as
-- `<field_id>x<hex of its UTF-8 bytes>` so FTS5 keeps it exactly and one table serves every field.
CREATE VIRTUAL TABLE IF NOT EXISTS index_text USING fts5(body, content = '', contentless_delete = 1, tokenize = 'ascii');

-- The term vocabulary, for fuzzy, wildcard and regexp expansion.
CREATE VIRTUAL TABLE IF NOT EXISTS index_terms USING fts5vocab(index_text, 'row');
