-- State of declared cross-site backup locations (per cache and site): kept across restarts.
CREATE TABLE xsite_state (
  cache          TEXT NOT NULL,
  site           TEXT NOT NULL,
  status         TEXT NOT NULL,
  mode           TEXT NOT NULL,
  after_failures INTEGER NOT NULL,
  min_wait       INTEGER NOT NULL,
  PRIMARY KEY (cache, site)
);
