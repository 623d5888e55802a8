import { expect } from 'chai';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  checkConsoleDir, ConfigError, nodeNameOf, parseAuthMechanisms, parseDurability, parseMemberName, parsePort, parseSize, readConfigFile, readConfigFiles, resolveConfig, type ConfigOverrides,
} from '../../../src/config/server-config';

describe('parseSize', () => {
  const table: Array<[string, number]> = [
    ['1048576', 1_048_576], ['10B', 10], ['10KB', 10_000], ['10MB', 10_000_000], ['2GB', 2e9], ['1TB', 1e12],
    ['512KiB', 524_288], ['1MiB', 1_048_576], ['1GiB', 1024 ** 3], ['10M', 10_000_000], ['10mb', 10_000_000],
    ['1.5KB', 1_500], [' 10 MB ', 10_000_000],
  ];
  for (const [text, bytes] of table) {
    it(`reads ${JSON.stringify(text)} as ${bytes} bytes`, () => expect(parseSize(text, 'max-content-length')).to.equal(bytes));
  }

  for (const text of ['', 'big', '-1', '10XB', '10 M B', '1e6']) {
    it(`rejects ${JSON.stringify(text)} with a ConfigError naming the setting`, () => {
      expect(() => parseSize(text, 'max-content-length')).to.throw(ConfigError, /^max-content-length: /);
    });
  }
});

describe('parsePort', () => {
  for (const [text, port] of [['0', 0], ['80', 80], ['11222', 11222], ['65535', 65535]] as const) {
    it(`reads ${text} as ${port}`, () => expect(parsePort(text)).to.equal(port));
  }

  it('accepts a number from a parsed file', () => {
    expect(parsePort(8080)).to.equal(8080);
  });

  for (const text of ['65536', '-1', '80.5', 'http', 'null']) {
    it(`rejects ${JSON.stringify(text)} with a ConfigError`, () => expect(() => parsePort(text)).to.throw(ConfigError, /not a port number/));
  }

  it('rejects an empty value', () => {
    expect(() => parsePort('')).to.throw(ConfigError);
  });
});

describe('parseDurability', () => {
  it('accepts power and process', () => {
    expect(parseDurability('power')).to.equal('power');
    expect(parseDurability('process')).to.equal('process');
  });

  for (const text of ['POWER', 'fsync', '']) {
    it(`rejects ${JSON.stringify(text)} with a ConfigError`, () => expect(() => parseDurability(text)).to.throw(ConfigError));
  }
});

describe('readConfigFile', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'grid-config-'));
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function file(name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  }

  const EVERY_SETTING: ConfigOverrides = {
    dataDir: '/var/lib/grid', host: '0.0.0.0', port: 8081, durability: 'process', authEnabled: false,
    maxContentLength: 1_048_576, logLevel: 'debug', nodeName: 'node-a', expirationInterval: 5000,
    properties: { 'infinispan.server.rest.cors-allow': 'http://localhost:3000', answer: '42' },
  };

  describe('YAML', () => {
    const settings = [
      'data: /var/lib/grid', 'host: 0.0.0.0', 'port: 8081', 'durability: process', 'auth: false',
      'max-content-length: 1MiB', 'log-level: debug', 'node-name: node-a', 'expiration-interval: 5000',
      'properties:', '  infinispan.server.rest.cors-allow: http://localhost:3000', '  answer: 42',
    ];

    it('reads every setting under a server: root', () => {
      const path = file('root.yaml', ['server:', ...settings.map((l) => `  ${l}`)].join('\n'));
      expect(readConfigFile(path)).to.deep.equal(EVERY_SETTING);
    });

    it('reads every setting without a server: root', () => {
      expect(readConfigFile(file('flat.yml', settings.join('\n')))).to.deep.equal(EVERY_SETTING);
    });

    it('accepts data-dir as another name for data', () => {
      expect(readConfigFile(file('data-dir.yaml', 'data-dir: ./here'))).to.deep.equal({ dataDir: './here' });
    });

    it('reads an empty file as no settings', () => {
      expect(readConfigFile(file('empty.yaml', ''))).to.deep.equal({});
    });

    it('rejects an unknown key with a ConfigError naming it', () => {
      expect(() => readConfigFile(file('unknown.yaml', 'port: 8081\nprot: 8082'))).to.throw(ConfigError, /unknown setting 'prot'/);
    });

    it('rejects an unknown key under the server: root', () => {
      expect(() => readConfigFile(file('unknown-root.yaml', 'server:\n  colour: blue'))).to.throw(ConfigError, /unknown setting 'colour'/);
    });

    it('rejects a key next to the server: root', () => {
      const path = file('beside-root.yaml', 'server:\n  port: 8081\nprot: 8082');
      expect(() => readConfigFile(path)).to.throw(ConfigError, /unknown setting 'prot'/);
    });

    it('rejects aliases (no entity expansion)', () => {
      const path = file('alias.yaml', 'host: &h 0.0.0.0\nnode-name: *h');
      expect(() => readConfigFile(path)).to.throw(ConfigError);
    });

    it('rejects a bad value with a ConfigError', () => {
      expect(() => readConfigFile(file('bad-port.yaml', 'port: 70000'))).to.throw(ConfigError, /port/);
      expect(() => readConfigFile(file('bad-durability.yaml', 'durability: maybe'))).to.throw(ConfigError, /durability/);
      expect(() => readConfigFile(file('bad-auth.yaml', 'auth: sometimes'))).to.throw(ConfigError, /auth/);
      expect(() => readConfigFile(file('bad-level.yaml', 'log-level: loud'))).to.throw(ConfigError, /log-level/);
    });

    it('rejects a document that is not a mapping', () => {
      expect(() => readConfigFile(file('list.yaml', '- port: 1'))).to.throw(ConfigError);
    });

    it('rejects text that is not YAML with a ConfigError', () => {
      expect(() => readConfigFile(file('broken.yaml', 'port: [1, 2'))).to.throw(ConfigError);
    });
  });

  describe('JSON', () => {
    const settings = {
      data: '/var/lib/grid', host: '0.0.0.0', port: 8081, durability: 'process', auth: false,
      'max-content-length': '1MiB', 'log-level': 'debug', 'node-name': 'node-a', 'expiration-interval': 5000,
      properties: { 'infinispan.server.rest.cors-allow': 'http://localhost:3000', answer: 42 },
    };

    it('reads every setting under a "server" root', () => {
      expect(readConfigFile(file('root.json', JSON.stringify({ server: settings })))).to.deep.equal(EVERY_SETTING);
    });

    it('reads every setting without a root', () => {
      expect(readConfigFile(file('flat.json', JSON.stringify(settings)))).to.deep.equal(EVERY_SETTING);
    });

    it('rejects an unknown key', () => {
      expect(() => readConfigFile(file('unknown.json', '{"port": 1, "ports": 2}'))).to.throw(ConfigError, /unknown setting 'ports'/);
    });

    it('rejects malformed JSON with a ConfigError', () => {
      expect(() => readConfigFile(file('broken.json', '{"port": '))).to.throw(ConfigError);
    });
  });

  describe('XML', () => {
    it('reads settings given as attributes of <server>', () => {
      const path = file('attrs.xml', '<?xml version="1.0"?>\n<server port="8081" host="0.0.0.0" durability="process" auth="false"/>');
      expect(readConfigFile(path)).to.deep.equal({ port: 8081, host: '0.0.0.0', durability: 'process', authEnabled: false });
    });

    it('reads settings given as child elements of <server>', () => {
      const path = file('children.xml', [
        '<server>', '  <!-- a comment -->', '  <data>/var/lib/grid</data>', '  <max-content-length>1MiB</max-content-length>',
        '  <log-level>debug</log-level>', '  <node-name>node-a</node-name>', '  <expiration-interval>5000</expiration-interval>', '</server>',
      ].join('\n'));
      expect(readConfigFile(path)).to.deep.equal({
        dataDir: '/var/lib/grid', maxContentLength: 1_048_576, logLevel: 'debug', nodeName: 'node-a', expirationInterval: 5000,
      });
    });

    it('rejects an unknown element', () => {
      expect(() => readConfigFile(file('unknown.xml', '<server><colour>blue</colour></server>'))).to.throw(ConfigError, /unknown setting 'colour'/);
    });

    it('rejects a root element other than <server>', () => {
      expect(() => readConfigFile(file('other-root.xml', '<grid port="8081"/>'))).to.throw(ConfigError, /'grid'/);
    });

    it('rejects a DOCTYPE (no entity expansion)', () => {
      const path = file('doctype.xml', '<?xml version="1.0"?>\n<!DOCTYPE server [<!ENTITY p "8081">]>\n<server><port>&p;</port></server>');
      expect(() => readConfigFile(path)).to.throw(ConfigError, /DOCTYPE/);
    });

    it('rejects malformed XML with a ConfigError', () => {
      expect(() => readConfigFile(file('broken.xml', '<server><port>8081</server>'))).to.throw(ConfigError);
    });
  });

  it('reports a missing file as a ConfigError', () => {
    expect(() => readConfigFile(join(dir, 'absent.yaml'))).to.throw(ConfigError, /cannot read configuration file/);
  });

  describe('loggers', () => {
    it('reads a YAML list of loggers with a level and/or appenders (levels in any case)', () => {
      const path = file('loggers.yaml', [
        'loggers:', '  - name: org.infinispan.REST_ACCESS_LOG', '    level: trace',
        '  - name: grid.cache', '    appenders: [JSON-FILE]', "  - name: ''", '    level: WARN', '    appenders: STDOUT, JSON-FILE',
      ].join('\n'));
      expect(readConfigFile(path).loggers).to.deep.equal([
        { name: 'org.infinispan.REST_ACCESS_LOG', level: 'TRACE' }, { name: 'grid.cache', appenders: ['JSON-FILE'] },
        { name: '', level: 'WARN', appenders: ['STDOUT', 'JSON-FILE'] },
      ]);
    });

    it('reads <loggers><logger …/></loggers> in XML, one or several', () => {
      const one = file('one-logger.xml', '<server><loggers><logger name="org.infinispan.REST_ACCESS_LOG" level="TRACE"/></loggers></server>');
      expect(readConfigFile(one).loggers).to.deep.equal([{ name: 'org.infinispan.REST_ACCESS_LOG', level: 'TRACE' }]);
      const two = file('two-loggers.xml', '<server><loggers><logger name="a" level="debug"/><logger name="b" appenders="STDOUT"/></loggers></server>');
      expect(readConfigFile(two).loggers).to.deep.equal([{ name: 'a', level: 'DEBUG' }, { name: 'b', appenders: ['STDOUT'] }]);
    });

    it('rejects an unknown level, an unknown appender, a missing name, a logger with neither and an unknown key', () => {
      const bad = (yaml: string) => () => readConfigFile(file('bad-loggers.yaml', `loggers:\n${yaml}`));
      expect(bad('  - {name: a, level: LOUD}')).to.throw(ConfigError, /level 'LOUD' must be one of OFF, FATAL/);
      expect(bad('  - {name: a, appenders: [SYSLOG]}')).to.throw(ConfigError, /unknown appender 'SYSLOG'/);
      expect(bad('  - {level: INFO}')).to.throw(ConfigError, /needs a name/);
      expect(bad('  - {name: a}')).to.throw(ConfigError, /needs a level or appenders/);
      expect(bad('  - {name: a, level: INFO, colour: blue}')).to.throw(ConfigError, /unknown setting 'colour'/);
      expect(bad('  name: a')).to.throw(ConfigError, /expected a list of loggers/);
    });
  });
});

describe('resolveConfig', () => {
  const noEnv = {};

  it('starts from the defaults', () => {
    const c = resolveConfig({}, {}, noEnv);
    expect(c).to.deep.include({
      dataDir: resolve('./data'), host: '127.0.0.1', port: 11222, durability: 'power', authEnabled: true,
      maxContentLength: 10_000_000, logLevel: 'info', expirationInterval: 60_000, clusterName: 'cluster', properties: {},
    });
    expect(c.appUser).to.equal(undefined);
  });

  it('names the node: node-name, else the host name, and on the redis engine the host name and port (docs/scale-out.md, "Membership")', () => {
    expect(nodeNameOf(resolveConfig({}, {}, noEnv), 11222)).to.equal(hostname());
    const redis: ConfigOverrides = { engine: { type: 'redis', nodes: [{ host: '127.0.0.1', port: 7000 }] } };
    expect(nodeNameOf(resolveConfig({}, redis, noEnv), 11223)).to.equal(`${hostname()}-11223`);
    expect(nodeNameOf(resolveConfig({ nodeName: 'node-a' }, redis, noEnv), 11223)).to.equal('node-a');
  });

  it('reads cluster-name and refuses node and cluster names a header or a path cannot carry', () => {
    expect(resolveConfig({ clusterName: 'prod' }, {}, noEnv).clusterName).to.equal('prod');
    expect(parseMemberName('node a.1', 'node-name')).to.equal('node a.1');
    for (const bad of ['', ' a', 'a ', 'a\nb', 'né', 'x'.repeat(256)]) expect(() => parseMemberName(bad, 'node-name'), bad).to.throw(ConfigError, /must be 1-255 printable ASCII characters/);
  });

  it('lets the file override the defaults and the flags override the file', () => {
    const file: ConfigOverrides = { port: 8081, host: '0.0.0.0', durability: 'process', logLevel: 'debug' };
    const flags: ConfigOverrides = { port: 9000, logLevel: 'warn' };
    expect(resolveConfig(file, flags, noEnv)).to.deep.include({ port: 9000, host: '0.0.0.0', durability: 'process', logLevel: 'warn' });
  });

  it('ignores flags that were not given (undefined)', () => {
    const flags: ConfigOverrides = { port: undefined, host: undefined, authEnabled: undefined };
    expect(resolveConfig({ port: 8081, authEnabled: false }, flags, noEnv)).to.deep.include({ port: 8081, host: '127.0.0.1', authEnabled: false });
  });

  it('merges properties, flags winning per name', () => {
    const c = resolveConfig({ properties: { a: 'file', b: 'file' } }, { properties: { b: 'flag', c: 'flag' } }, noEnv);
    expect(c.properties).to.deep.equal({ a: 'file', b: 'flag', c: 'flag' });
  });

  it('makes the data directory absolute', () => {
    expect(resolveConfig({ dataDir: 'rel/dir' }, {}, noEnv).dataDir).to.equal(resolve('rel/dir'));
  });

  describe('APP_USER / APP_PASS / APP_ROLE (docs/reference/http.md#authentication)', () => {
    it('APP_USER and APP_PASS create an admin user', () => {
      expect(resolveConfig({}, {}, { APP_USER: 'app', APP_PASS: 'secret' }).appUser).to.deep.equal({ name: 'app', password: 'secret', roles: ['admin'] });
    });

    it('APP_ROLE sets the roles, comma-separated', () => {
      const env = { APP_USER: 'app', APP_PASS: 'secret', APP_ROLE: 'observer, monitor' };
      expect(resolveConfig({}, {}, env).appUser?.roles).to.deep.equal(['observer', 'monitor']);
    });

    it('APP_USER without APP_PASS is a ConfigError', () => {
      expect(() => resolveConfig({}, {}, { APP_USER: 'app' })).to.throw(ConfigError, /APP_PASS/);
    });

    it('APP_PASS alone creates no user', () => {
      expect(resolveConfig({}, {}, { APP_PASS: 'secret' }).appUser).to.equal(undefined);
    });
  });
});

describe('the console setting', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'grid-console-config-'));
    writeFileSync(join(dir, 'index.html'), '<html></html>');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is read from the file and kept as the real path of a directory holding index.html', () => {
    const yaml = join(dir, 'grid.yaml');
    writeFileSync(yaml, `console: ${dir}`);
    expect(readConfigFile(yaml)).to.deep.equal({ consoleDir: dir });
    expect(resolveConfig({ consoleDir: dir }, {}, {}).consoleDir).to.equal(realpathSync(dir));
    expect(resolveConfig({}, {}, {}).consoleDir).to.equal(undefined);
  });

  it('stops the start when the directory is missing, a file, or has no index.html', () => {
    expect(() => checkConsoleDir(join(dir, 'nope'))).to.throw(ConfigError, /console: .* does not exist; point it at a built Infinispan web console/);
    expect(() => checkConsoleDir(join(dir, 'index.html'))).to.throw(ConfigError, /is not a directory/);
    const empty = mkdtempSync(join(tmpdir(), 'grid-console-empty-'));
    try {
      expect(() => resolveConfig({}, { consoleDir: empty }, {})).to.throw(ConfigError, /has no index.html/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('auth-mechanisms and digest-without-qop', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'grid-config-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('default to Basic and Digest, Digest only with qop', () => {
    expect(resolveConfig({}, {}, {})).to.deep.include({ authMechanisms: ['basic', 'digest'], digestWithoutQop: false });
  });

  it('read a YAML list, a JSON list, XML text and a comma-separated flag', () => {
    expect(readConfigFile(file('m.yaml', 'auth-mechanisms: [basic]\ndigest-without-qop: true'))).to.deep.equal({ authMechanisms: ['basic'], digestWithoutQop: true });
    expect(readConfigFile(file('m.json', '{"auth-mechanisms":["DIGEST","basic"]}'))).to.deep.equal({ authMechanisms: ['digest', 'basic'] });
    expect(readConfigFile(file('m.xml', '<server><auth-mechanisms>basic digest</auth-mechanisms></server>'))).to.deep.equal({ authMechanisms: ['basic', 'digest'] });
    expect(parseAuthMechanisms('basic,digest,basic')).to.deep.equal(['basic', 'digest']);
  });

  it('refuse unknown and empty mechanism lists with a ConfigError', () => {
    expect(() => parseAuthMechanisms('basic,bearer')).to.throw(ConfigError, /'bearer' is not a mechanism/);
    expect(() => parseAuthMechanisms('')).to.throw(ConfigError, /at least one/);
    expect(() => readConfigFile(file('bad.yaml', 'digest-without-qop: maybe'))).to.throw(ConfigError, /true or false/);
  });
});

describe('task and backup limits (task-*, backup-*)', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'grid-config-limits-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('reads every limit from YAML, backup-roots as a list', () => {
    const path = file('limits.yaml', [
      'task-timeout: 2500', 'task-memory-limit: 32MiB', 'task-max-host-calls: 5000', 'task-max-write: 1MiB', 'task-concurrency: 2',
      'backup-roots:', '  - /srv/backups', '  - relative/dir', 'backup-timeout: 60000',
    ].join('\n'));
    expect(readConfigFile(path)).to.deep.equal({
      taskTimeout: 2500, taskMemoryLimit: 32 * 1024 * 1024, taskMaxHostCalls: 5000, taskMaxWrite: 1024 * 1024, taskConcurrency: 2,
      backupRoots: ['/srv/backups', resolve('relative/dir')], backupTimeout: 60_000,
    });
  });

  it('reads backup-roots from XML as one PATH-style string', () => {
    const path = file('limits.xml', '<server backup-roots="/srv/a:/srv/b" task-timeout="100"/>');
    expect(readConfigFile(path)).to.deep.equal({ backupRoots: ['/srv/a', '/srv/b'], taskTimeout: 100 });
  });

  it('rejects values that cannot be limits', () => {
    expect(() => readConfigFile(file('small.yaml', 'task-memory-limit: 1MiB'))).to.throw(ConfigError, /task-memory-limit: '1MiB' must be at least 8MiB/);
    expect(() => readConfigFile(file('zero.yaml', 'task-timeout: 0'))).to.throw(ConfigError, /task-timeout/);
    expect(() => readConfigFile(file('nowrite.yaml', 'task-max-write: 0'))).to.throw(ConfigError, /task-max-write/);
    expect(() => readConfigFile(file('roots.yaml', 'backup-roots:\n  a: b'))).to.throw(ConfigError, /backup-roots: expected a list of directories/);
    expect(() => readConfigFile(file('roots.json', '{"backup-roots": [1]}'))).to.throw(ConfigError, /backup-roots/);
  });

  it('defaults: 5 s, 64 MiB, 100000 host calls, 16 MiB written, 4 at once; no extra backup roots, one hour', () => {
    expect(resolveConfig({}, {}, {})).to.deep.include({
      taskTimeout: 5000, taskMemoryLimit: 64 * 1024 * 1024, taskMaxHostCalls: 100_000, taskMaxWrite: 16 * 1024 * 1024, taskConcurrency: 4,
      backupRoots: [], backupTimeout: 3_600_000,
    });
    expect(resolveConfig({}, { backupRoots: ['rel'] }, {}).backupRoots).to.deep.equal([resolve('rel')]);
  });
});

describe('readConfigFiles (several --config)', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'grid-configs-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => { const p = join(dir, name); writeFileSync(p, text); return p; };

  it('merges in order: a later file\'s setting wins, properties and limits key by key, declarations add up', () => {
    const one = file('one.yaml', 'port: 1\nhost: 0.0.0.0\nproperties: { a: "1", b: "1" }\nlimits: { config-bytes: 1000 }\ncaches: { c: { local-cache: {} } }');
    const two = file('two.xml', '<server port="2"><properties b="2"/><limits config-depth="5"/></server>');
    const three = file('three.xml', '<infinispan><cache-container/></infinispan>');
    const merged = readConfigFiles([one, two, three]);
    expect(merged).to.deep.include({ port: 2, host: '0.0.0.0', properties: { a: '1', b: '2' }, limits: { configBytes: 1000, configDepth: 5 } });
    expect(merged.declarations!.map((d) => [d.path, d.format])).to.deep.equal([[one, 'yaml'], [three, 'xml']]);
  });

  it('reads the original\'s infinispan document as declarations only, and refuses settings beside it', () => {
    expect(readConfigFile(file('i.json', '{"infinispan": {}}'))).to.deep.equal({ declarations: [{ path: join(dir, 'i.json'), format: 'json', text: '{"infinispan": {}}' }] });
    expect(() => readConfigFile(file('j.yaml', 'infinispan: {}\nport: 1'))).to.throw(ConfigError, /unknown setting 'port' beside 'infinispan'/);
  });

  it('reads update-declared, never or mutable', () => {
    expect(readConfigFile(file('u.yaml', 'update-declared: mutable')).updateDeclared).to.equal('mutable');
    expect(() => readConfigFile(file('v.yaml', 'update-declared: always'))).to.throw(ConfigError, /update-declared: 'always' must be 'never' or 'mutable'/);
  });
});
