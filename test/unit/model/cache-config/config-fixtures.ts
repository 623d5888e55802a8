// The example definitions of docs/reference/management-plane.md#config-formats (the original's REST test resources).

export const CACHE_XML = `<infinispan>
    <cache-container>
        <distributed-cache name="dist" mode="SYNC" l1-lifespan="1200000" segments="2">
            <locking acquire-timeout="31500" concurrency-level="3500" isolation="READ_COMMITTED"/>
            <transaction mode="FULL_XA" locking="OPTIMISTIC"/>
            <memory storage="OBJECT" max-count="20"/>
            <state-transfer enabled="true" timeout="60500" chunk-size="10500"/>
        </distributed-cache>
    </cache-container>
</infinispan>
`;

export const CACHE_FRAGMENT_XML = `<distributed-cache name="dist" mode="SYNC" l1-lifespan="1200000" segments="2">
   <locking acquire-timeout="31500" concurrency-level="3500" isolation="READ_COMMITTED"/>
   <transaction mode="FULL_XA" locking="OPTIMISTIC"/>
   <memory>
      <object size="20"/>
   </memory>
   <state-transfer enabled="true" timeout="60500" chunk-size="10500"/>
</distributed-cache>
`;

export const CACHE_JSON = `{
  "distributed-cache": {
    "mode": "SYNC",
    "l1-lifespan": 1200000,
    "segments": "2",
    "locking": {
      "acquire-timeout": 31500,
      "concurrency-level": 3500,
      "isolation": "READ_COMMITTED"
    },
    "transaction": {
      "mode": "FULL_XA",
      "locking": "OPTIMISTIC"
    },
    "memory": {
      "storage": "OBJECT",
      "max-count": 20
    },
    "state-transfer": {
      "enabled": true,
      "timeout": 60500,
      "chunk-size": 10500
    }
  }
}
`;

export const LOCAL_YAML = `localCache:
  statistics: "true"
  encoding:
    key:
      mediaType: "application/x-java-object"
    value:
      mediaType: "application/x-java-object"
  locking:
    acquire-timeout: "30000"
    concurrency-level: "2000"
    isolation: "NONE"
    striping: "true"
`;

export const BROKEN_XML = `<local-cache name="local" statistics="true">
   <encoding>
      <key media-type="application/x-java-object"/>
      <value media-type="application/x-java-object"/>
   </encoding>
   <locking acquire-timeout="30000" concurrency-level="2000" isolation="NONE" striping="true"/>
   <error/>
</local-cache>
`;

export const BROKEN_JSON = `{
  "local-cache": {
    "statistics": "true",
    "encoding": {
      "key": {
        "media-type": "application/x-java-object"
      }
    },
    "error": {}
  }
}
`;

export const BROKEN_YAML = `${LOCAL_YAML}  error: ~
`;

/** A definition touching most of the schema, for round trips. */
export const RICH_JSON = JSON.stringify({
  'replicated-cache': {
    mode: 'ASYNC',
    statistics: true,
    aliases: ['alpha', 'beta'],
    'remote-timeout': '17500',
    encoding: { key: { 'media-type': 'text/plain' }, value: { 'media-type': 'application/x-protostream' } },
    expiration: { lifespan: '5s', 'max-idle': 60000 },
    memory: { 'max-size': '400MB', 'when-full': 'REMOVE' },
    persistence: { passivation: false, 'file-store': { path: 'data/<&>"\'', preload: true } },
    indexing: { enabled: true, storage: 'local-heap', 'indexed-entities': ['org.example.Book', 'org.example.Author'], 'index-reader': { 'refresh-interval': '1s' } },
    security: { authorization: { roles: ['admin', 'reader'] } },
    backups: { NYC: { backup: { strategy: 'SYNC', 'take-offline': { 'after-failures': 3 } } }, LON: { backup: {} } },
    'partition-handling': { 'when-split': 'DENY_READ_WRITES', 'merge-policy': 'PREFERRED_NON_NULL' },
    'state-transfer': { timeout: '4m' },
  },
});
