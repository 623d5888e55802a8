-- The keys of each cache in key order, apart from the values (an index of a WITHOUT ROWID table
-- holds the primary key: here (cache_id, key)), and the expiry of the mortal ones by key. Listing
-- keys and counting live entries read these indexes only: a range of the table's own rows is read
-- whole, every value's overflow pages included (counting a cache of 300 values of 1 MB read 300 MB).
-- Rewriting an immortal entry touches neither: no indexed column of its row changes.
CREATE INDEX IF NOT EXISTS entries_keys ON entries (cache_id);
CREATE INDEX IF NOT EXISTS entries_mortal ON entries (cache_id, key, expires_at) WHERE expires_at IS NOT NULL;
