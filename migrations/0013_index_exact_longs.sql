-- 64-bit integers are indexed as exact INTEGERs (docs/query.md "64-bit integers"). Earlier versions
-- stored those beyond 2^53 as rounded REALs (and uint64 values beyond 2^63 unsigned), which exact
-- literals and signed order no longer meet. An index holding any such value is emptied, its types
-- and fields too, so that each persistent indexed cache is indexed again from its entries in the
-- background at start, as a data directory from before indexing is. The test is a scan of
-- index_values once; a double field with a huge integral value empties the index too: a rebuild,
-- never a wrong answer.
CREATE TEMP TABLE rounded_longs AS SELECT EXISTS (
  SELECT 1 FROM index_values
  WHERE typeof(value) = 'real' AND value = round(value)
    AND ((value >= 9007199254740992.0 AND value <= 18446744073709551616.0) OR (value <= -9007199254740992.0 AND value >= -9223372036854775808.0))
) AS found;

DELETE FROM index_values WHERE (SELECT found FROM rounded_longs);
INSERT INTO index_text (index_text) SELECT 'delete-all' WHERE (SELECT found FROM rounded_longs);
DELETE FROM index_memory_only WHERE (SELECT found FROM rounded_longs);
DELETE FROM index_docs WHERE (SELECT found FROM rounded_longs);
DELETE FROM index_fields WHERE (SELECT found FROM rounded_longs);
DELETE FROM index_types WHERE (SELECT found FROM rounded_longs);

DROP TABLE rounded_longs;
