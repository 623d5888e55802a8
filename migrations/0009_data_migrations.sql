-- One-time data migrations written in code (a rewrite SQL alone cannot express), each recorded
-- here in the same transaction as its changes so it runs exactly once.
CREATE TABLE data_migrations (
  name       TEXT PRIMARY KEY,
  applied_at INTEGER NOT NULL
);
