/** The options every client of a running server takes (rest-client.ts CONNECTION_OPTIONS). */
const CONNECTION_HELP = `Connecting:
  --server URL          the server (default $GRID_SERVER, else http://127.0.0.1:11222)
  -u, --user USER       log in as USER (or $GRID_USER)
  -p, --password PW     its password (or $GRID_PASSWORD)
  --netrc-file FILE     credentials as 'machine HOST login USER password PW' lines
                        (default $NETRC, else ~/.netrc; must not be readable by others)
  --tenant NAME         a tenant's container instead of the default one`;

const ENTRY_USAGE = `Usage: grid get|put|rm|keys CACHE [KEY] [options]

  grid get CACHE KEY [--accept TYPE]       print a value (its bytes, as stored or converted to TYPE)
  grid put CACHE KEY VALUE                 write a value (text/plain; charset=utf-8)
  grid put CACHE KEY --file F              write a file's bytes (- reads standard input)
  grid rm CACHE KEY                        remove an entry
  grid keys CACHE [--limit N]              the keys, one a line

Options of put:
  --content-type TYPE   the value's media type, e.g. application/json
  --ttl S               lifespan in seconds (-1: never expires; default: the cache's)
  --max-idle S          maximum idle time in seconds
Options of get, put and rm:
  --key-content-type TYPE   the key's media type (default text/plain)

${CONNECTION_HELP}`;

/** Help texts of `grid` and its commands. */
export const USAGE: Record<string, string> = {
  main: `Usage: grid <command> [options]

The server, on this machine:
  start             start the server
  user              manage users of the built-in realm (create, list, remove, password)
  migrate           bring the database in the data directory to the latest schema
  redis-cluster     start, stop a local Redis Cluster to try the redis engine on

A running server, over its REST API (--server URL, default http://127.0.0.1:11222):
  cache             ls, create, delete, stats, clear, size
  get, put, rm      read, write, remove an entry; keys lists a cache's keys
  query             run an Ickle query: a table on a terminal, JSON when piped
  schema            ls, upload, get, rm protobuf schemas
  counter           ls, create, get, add, reset, rm counters
  task              ls, upload, exec server tasks
  backup            ls, create, download, rm backups on the server
  restore           upload a backup archive and restore it
  stop              stop the server

  --version         print grid's version

Run 'grid <command> --help' for the options of a command. Exit codes: 0 done, 1 failed,
2 bad usage, 3 no server answers.`,

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
  --engine E            sqlite (default): the embedded store in --data; redis: a Redis
                        Cluster several grid nodes share (in progress, docs/scale-out.md)
  --redis HOST:PORT[,HOST:PORT…]   nodes of that cluster to connect through (any will do)
  --redis-password-file FILE       the cluster's password, first line (or GRID_REDIS_PASSWORD;
                        never on the command line)
  --node-name NAME      this node's name (default: the host name; on the redis engine the
                        host name and port, e.g. host-11222); unique among a cluster's nodes
  --cluster-name NAME   the cluster's name (default cluster); every node of one grid the same
  --limit NAME=VALUE    change one limit, e.g. --limit config-bytes=2MiB (repeatable;
                        names and defaults in docs/security.md "Limits")
  -Dname=value          set a server property (repeatable), e.g.
                        -Dgrid.server.rest.cors-allow=https://app.example.com (CORS: all rights)
                        -Dgrid.server.rest.allowed-hosts=grid.example.com (accepted Host names)
  -h, --help            show this help

Environment:
  APP_USER, APP_PASS    create or update this user at start (role admin, or APP_ROLE)
  APP_ROLE              comma-separated roles for APP_USER
  GRID_TLS_KEYSTORE_PASSWORD   password of --tls-keystore (or of an encrypted --tls-key)
  GRID_REDIS_PASSWORD   password of the Redis Cluster of --engine redis`,

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
  --engine, --redis, --redis-password-file, --config FILE
                        the engine, as for grid start; by default the one the node whose data
                        directory --data names last started on (a redis-engine node: the users
                        are written to the cluster, where every node reads them)
  -h, --help            show this help

Users created while the server runs can log in at once. Passwords are stored as scrypt hashes;
Digest credentials are encrypted with DIR/credentials.key, or not stored when the server runs
with --auth-mechanisms basic.
Without --tenant the users are the default container's (paths /rest/v2/…, and the process-wide
resources: server, cluster, logging).`,

  migrate: `Usage: grid migrate [--data DIR]

Applies the SQL migrations the database in DIR (default ./data) has not seen yet.`,

  'redis-cluster': `Usage: grid redis-cluster <start|stop|status> [options]

  grid redis-cluster start    start 3 masters and 3 replicas of the installed redis-server on
                              127.0.0.1 (creating the cluster the first time), wait until it
                              is ready and print its seed addresses; already running: says so
  grid redis-cluster stop     stop each node by its own PID (data kept: start brings it back)
  grid redis-cluster status   each node's PID, role and slots, and the cluster's state
                              (exit code 1 unless every node runs and the state is ok)

Options:
  --dir DIR             the cluster's directory, 0700 (default ./data/redis-cluster): a
                        generated password (DIR/password, 0600) and one directory per node
  --base-port P         start only, for a new cluster: nodes on P…P+5, their cluster bus on
                        P+10000… (default 7000)
  -h, --help            show this help

Needs redis-server and redis-cli (Debian: apt-get install redis-server). docs/scale-out.md`,

  // ---- clients of a running server (src/cli/rest-client.ts; docs/cli.md) ----

  cache: `Usage: grid cache <ls|create|delete|stats|clear|size> [NAME] [options]

  grid cache ls                                  the caches' names
  grid cache create NAME [--template T | --file F]   create a cache from a template or a
                                                 configuration file (JSON, XML or YAML)
  grid cache delete NAME                         delete a cache and its entries
  grid cache stats NAME                          its statistics (JSON)
  grid cache clear NAME                          remove every entry
  grid cache size NAME                           the number of entries

${CONNECTION_HELP}`,

  get: ENTRY_USAGE,
  put: ENTRY_USAGE,
  rm: ENTRY_USAGE,
  keys: ENTRY_USAGE,

  query: `Usage: grid query CACHE 'ICKLE' [options]

  grid query books "from shop.Book where year > 1960 order by year"

Options:
  --max-results N       at most N hits (the server's default is 10)
  --offset N            skip the first N hits
  --format F            table (the default on a terminal) or json (the default when piped:
                        the server's answer as it is)

${CONNECTION_HELP}`,

  schema: `Usage: grid schema <ls|upload|get|rm> [options]

  grid schema ls                         the schemas, with their errors
  grid schema upload FILE [--name N]     register or replace a .proto file (name: the file's)
  grid schema get NAME                   print a schema
  grid schema rm NAME                    remove a schema

${CONNECTION_HELP}`,

  counter: `Usage: grid counter <ls|create|get|add|reset|rm> [options]

  grid counter ls                 the counters' names
  grid counter create NAME [--type strong|weak] [--initial-value N] [--storage volatile|persistent]
                                  define a counter (default: strong, 0, volatile)
  grid counter get NAME           the value
  grid counter add NAME [DELTA]   add DELTA (default 1, may be negative) and print the value
  grid counter reset NAME         back to the initial value
  grid counter rm NAME            remove a counter

${CONNECTION_HELP}`,

  task: `Usage: grid task <ls|upload|exec> [options]

  grid task ls                                 the tasks: name, type, parameters
  grid task upload FILE [--name N]             upload a script (name: the file's, e.g. hello.js)
  grid task exec NAME [--param k=v …] [--cache C]   run a task and print its result

${CONNECTION_HELP}`,

  backup: `Usage: grid backup <ls|create|download|rm> [options]

  grid backup ls                       the backups on the server
  grid backup create NAME [-o FILE]    back up (everything, or what --caches … select) and wait;
                                       with -o, also download the archive to FILE
  grid backup download NAME [-o FILE]  save a backup's archive (default NAME.zip, the name
                                       percent-encoded as on the server: a/b → a%2Fb.zip)
  grid backup rm NAME                  delete a backup and its archive from the server
  grid backup restore FILE             the same as 'grid restore FILE'

Options:
  -o, --output FILE     where the archive is saved (written as FILE.part, renamed when whole)
  --caches a,b          only these caches (* for all); likewise --templates, --counters,
                        --schemas, --tasks; any of them leaves out the kinds not named

${CONNECTION_HELP}

Progress goes to stderr: a line rewritten in place on a terminal, a line every few seconds otherwise.`,

  restore: `Usage: grid restore FILE [options]

Uploads a backup archive (a zip from 'grid backup download' or any grid server) and waits until
the server has restored it. Caches that exist keep their entries and gain the archive's.

Options:
  --name NAME           the restore's name on the server (default restore-<time>)
  --caches a,b          only these caches; likewise --templates, --counters, --schemas, --tasks

${CONNECTION_HELP}

Progress (entries, bytes and percent sent) goes to stderr, rewritten in place on a terminal.`,

  stop: `Usage: grid stop [options]

Asks the server to stop (POST /rest/v2/server?action=stop, LIFECYCLE permission): it answers,
finishes the requests in flight and closes its store.

${CONNECTION_HELP}`,
};
