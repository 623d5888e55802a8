-- Server tasks (scripts) uploaded through /rest/v2/tasks.
CREATE TABLE tasks (
  name       TEXT PRIMARY KEY,
  script     TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
