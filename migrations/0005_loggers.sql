-- Logger levels and appenders changed at run time through /rest/v2/logging; '' is the root logger.
CREATE TABLE loggers (
  name      TEXT PRIMARY KEY,
  level     TEXT,
  appenders TEXT
);
