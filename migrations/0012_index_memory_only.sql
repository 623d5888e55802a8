-- Index documents of entries that only memory holds: a passivating cache's entries until they are
-- passivated (docs/query.md "Passivation and restarts"). Memory is empty at start, so these
-- documents describe entries that are gone and are deleted then. Kept in the same transactions as
-- the entry writes that move an entry between memory and the store. Idempotent, as 0011.
CREATE TABLE IF NOT EXISTS index_memory_only (
  doc_id INTEGER PRIMARY KEY
);
