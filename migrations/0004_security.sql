-- Roles defined at run time (the five default roles are built in) and the principal → role
-- mappings of the cluster role mapper. Lists are comma-separated.
CREATE TABLE roles (
  name        TEXT PRIMARY KEY,
  permissions TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT ''
);

CREATE TABLE principal_roles (
  principal TEXT PRIMARY KEY,
  roles     TEXT NOT NULL
);
