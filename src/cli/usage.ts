/** Help texts of `grid` and its commands. */
export const USAGE: Record<string, string> = {
  main: `Usage: grid <command> [options]

Commands:
  start             start the server
  user              manage users of the built-in realm (create, list, remove, password)
  migrate           bring the database in the data directory to the latest schema
  backup            create a backup of a running server, or restore one into it

Run 'grid <command> --help' for the options of a command.`,

  start: `Usage: grid start [options]

Options:
  --data DIR            data directory (default ./data)
  --host H              address to listen on (default 127.0.0.1)
  --port P              port to listen on, 0 picks a free one (default 11222)
  --config FILE         server configuration file (YAML, JSON or XML), grid's own or the
                        original's infinispan.xml/.yaml/.json; repeatable, later files win;
                        flags win over them. Declared caches, templates, counters, schemas
                        and roles are created at start (docs/configuration.md)
  --durability MODE     power (default): every acknowledged write survives power loss;
                        process: it survives a crash of the process (kill -9)
  --max-content-length SIZE   largest request body (default 10MB); larger ones get 413
  --log-level LEVEL     fatal, error, warn, info (default), debug, trace, silent
  --log-format F        pretty or json: how log lines are written to standard output
                        (default pretty on a terminal, json otherwise; the file is JSON)
  --auth-mechanisms M   basic, digest or basic,digest (default): what clients may use;
                        without digest no Digest credentials (HA1) are stored at all
  --console DIR         serve the built web console in DIR at /console/ (docs/console.md)
  --no-auth             serve without authentication (local experiments only); refused
                        on a non-loopback --host unless --allow-remote-no-auth is given
  --allow-remote-no-auth  let --no-auth listen on an address other machines can reach
  --tls-port P          also listen with TLS on port P (h2 or HTTP/1.1 by ALPN); the plain
                        port stays (HTTP/1.1 and h2c)
  --tls-cert FILE       PEM certificate (chain) for TLS, with --tls-key FILE (PEM private key)
  --tls-keystore FILE   or a PKCS#12 keystore; with neither, a self-signed certificate is
                        generated into DIR/tls once and its SHA-256 fingerprint printed
  --tls-keystore-password-file FILE   the keystore's (or encrypted key's) password, first line
  --tls-keystore-password PW          the same on the command line (visible to other users: prefer
                        the file or GRID_TLS_KEYSTORE_PASSWORD)
  --limit NAME=VALUE    change one limit, e.g. --limit config-bytes=2MiB (repeatable;
                        names and defaults in docs/security.md "Limits")
  -Dname=value          set a server property (repeatable), e.g.
                        -Dgrid.server.rest.cors-allow=https://app.example.com (CORS: all rights)
                        -Dgrid.server.rest.allowed-hosts=grid.example.com (accepted Host names)
  -h, --help            show this help

Environment:
  APP_USER, APP_PASS    create or update this user at start (role admin, or APP_ROLE)
  APP_ROLE              comma-separated roles for APP_USER
  GRID_TLS_KEYSTORE_PASSWORD   password of --tls-keystore (or of an encrypted --tls-key)`,

  user: `Usage: grid user <create|list|remove|password> [options]

  grid user create NAME -p PASSWORD -g ROLE[,ROLE]   create (or replace) a user
  grid user list                                     list users and their roles
  grid user remove NAME                              remove a user
  grid user password NAME -p NEW                     set a new password

Options:
  --data DIR            data directory (default ./data); it must hold a grid.db already
  --init                make a new data directory at --data if it is not one yet (to add
                        users before the server's first start)
  --tenant NAME         the users of this tenant: each tenant has its own (docs/configuration.md)
  -p, --password PW     the password
  -g, --groups ROLES    comma-separated roles: admin, deployer, application, observer, monitor
  -h, --help            show this help

Users created while the server runs can log in at once. Passwords are stored as scrypt hashes;
Digest credentials are encrypted with DIR/credentials.key, or not stored when the server runs
with --auth-mechanisms basic.
Without --tenant the users are the default container's (paths /rest/v2/…, and the process-wide
resources: server, cluster, logging).`,

  backup: `Usage: grid backup <create|restore> [options]

  grid backup create NAME [-o FILE]     back up everything, wait, download the zip (default NAME.zip,
                                        the name percent-encoded as on the server: a/b → a%2Fb.zip)
  grid backup restore FILE [--name N]   upload a backup zip and wait until it is restored

Options:
  --server URL          the server (default http://127.0.0.1:11222)
  -u, --user USER       an ADMIN user (or environment GRID_USER)
  -p, --password PW     its password (or environment GRID_PASSWORD)
  -o, --output FILE     where create saves the archive
  --name NAME           the restore's name on the server (default restore-<time>)
  --tenant NAME         a tenant's container instead of the default one (a backup restores
                        only into a container of the same name)
  -h, --help            show this help

Shows a progress line on a terminal, plain lines otherwise; exits 1 when the server reports a failure.`,

  migrate: `Usage: grid migrate [--data DIR]

Applies the SQL migrations the database in DIR (default ./data) has not seen yet.`,
};
