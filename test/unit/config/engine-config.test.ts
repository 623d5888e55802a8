import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseRedisNodes } from '../../../src/config/engine-config';
import { ConfigError, readConfigFile, readConfigFiles, resolveConfig } from '../../../src/config/server-config';
import { tempDir } from '../../support/server';

describe('engine settings (engine-config)', () => {
  let dir: string;
  before(() => { dir = tempDir('grid-engine-config-'); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('is the embedded SQLite store unless told otherwise', () => {
    expect(resolveConfig({}, {}, {}).engine).to.deep.equal({ type: 'sqlite' });
  });

  it('reads engine: {type, nodes, password-file, tls} from the file; paths are made absolute', () => {
    const pw = file('pw', 'from-file\nignored\n');
    const path = file('redis.yaml', `engine:\n  type: redis\n  nodes: [10.0.0.1:7000, "[::1]:7001"]\n  password-file: ${pw}\n  tls:\n    ca: ca.pem\n    server-name: redis.internal\n`);
    expect(resolveConfig(readConfigFile(path), {}, {}).engine).to.deep.equal({
      type: 'redis',
      nodes: [{ host: '10.0.0.1', port: 7000 }, { host: '::1', port: 7001 }],
      password: 'from-file',
      // where the password came from, recorded for `grid user` (never the password)
      passwordFile: pw,
      tls: { caFile: resolve('ca.pem'), certFile: undefined, keyFile: undefined, serverName: 'redis.internal' },
      namespace: undefined,
    });
  });

  it('lets the flags win over the file, and a later file over an earlier one key by key', () => {
    const first = file('first.yaml', 'engine: {type: redis, nodes: "a:1", password: one}\n');
    const second = file('second.json', JSON.stringify({ engine: { nodes: ['b:2'] } }));
    const merged = readConfigFiles([first, second]);
    expect(resolveConfig(merged, {}, {}).engine).to.deep.equal({ type: 'redis', nodes: [{ host: 'b', port: 2 }], password: 'one', passwordFile: undefined, tls: undefined, namespace: undefined });
    expect(resolveConfig(merged, { engine: { nodes: [{ host: 'c', port: 3 }] } }, {}).engine).to.include({ type: 'redis' })
      .and.to.have.deep.property('nodes', [{ host: 'c', port: 3 }]);
    expect(resolveConfig(merged, { engine: { type: 'sqlite' } }, {}).engine).to.deep.equal({ type: 'sqlite' });
  });

  it('reads a namespace from the file, which keeps two grids on one cluster apart', () => {
    const path = file('ns.yaml', 'engine: {type: redis, nodes: "h:1", namespace: team-a_1}\n');
    expect(resolveConfig(readConfigFile(path), {}, {}).engine).to.include({ namespace: 'team-a_1' });
  });

  it('takes the password from --redis-password-file, else the file, else GRID_REDIS_PASSWORD', () => {
    const pw = file('flag-pw', 'from-flag-file\n');
    const env = { GRID_REDIS_PASSWORD: 'from-env' };
    const redis = { type: 'redis' as const, nodes: [{ host: 'h', port: 1 }] };
    expect(resolveConfig({}, { engine: redis }, env).engine).to.include({ password: 'from-env' });
    expect(resolveConfig({ engine: { password: 'in-file' } }, { engine: redis }, env).engine).to.include({ password: 'in-file' });
    expect(resolveConfig({ engine: { password: 'in-file' } }, { engine: { ...redis, passwordFile: pw } }, env).engine).to.include({ password: 'from-flag-file', passwordFile: pw });
    expect(resolveConfig({}, { engine: redis }, {}).engine).to.deep.equal({ ...redis, password: undefined, passwordFile: undefined, tls: undefined, namespace: undefined });
  });

  it('parses HOST:PORT lists: commas, spaces, IPv6 in brackets', () => {
    expect(parseRedisNodes('127.0.0.1:7000, redis-1.internal:7001,[::1]:7002')).to.deep.equal([
      { host: '127.0.0.1', port: 7000 }, { host: 'redis-1.internal', port: 7001 }, { host: '::1', port: 7002 },
    ]);
  });

  const badNodes: Array<[string, RegExp]> = [
    ['', /name at least one node/],
    ['127.0.0.1', /'127.0.0.1' is not HOST:PORT/],
    ['host:0', /'host:0' is not HOST:PORT/],
    ['host:70000', /'host:70000' is not HOST:PORT/],
    ['::1:7000', /'::1:7000' is not HOST:PORT .*\[::1\]:7000/],
    ['redis://h:1', /'redis:\/\/h:1' is not HOST:PORT/],
  ];
  for (const [text, message] of badNodes) {
    it(`refuses --redis '${text}' with a ConfigError`, () => {
      expect(() => parseRedisNodes(text)).to.throw(ConfigError, message);
    });
  }

  const refusals: Array<[string, Parameters<typeof resolveConfig>[0], Parameters<typeof resolveConfig>[1], RegExp]> = [
    ['--engine redis without nodes', {}, { engine: { type: 'redis' } }, /^--engine redis needs the cluster's nodes: --redis HOST:PORT/],
    ['--redis without --engine redis', {}, { engine: { nodes: [{ host: 'h', port: 1 }] } }, /^--redis and --redis-password-file apply to --engine redis: add --engine redis/],
    ['a password file that cannot be read', {}, { engine: { type: 'redis', nodes: [{ host: 'h', port: 1 }], passwordFile: '/nonexistent/pw' } }, /^cannot read --redis-password-file \/nonexistent\/pw/],
  ];
  for (const [what, fileSettings, flags, message] of refusals) {
    it(`refuses ${what}`, () => {
      expect(() => resolveConfig(fileSettings, flags, {})).to.throw(ConfigError, message);
    });
  }

  it('refuses an empty password file: the first line is the password', () => {
    const empty = file('empty-pw', '\nsecond line\n');
    expect(() => resolveConfig({}, { engine: { type: 'redis', nodes: [{ host: 'h', port: 1 }], passwordFile: empty } }, {}))
      .to.throw(ConfigError, /the first line is empty; it should hold the password/);
  });

  const badFiles: Array<[string, string, RegExp]> = [
    ['an unknown engine', 'engine: postgres\n', /engine: 'postgres' is not an engine: sqlite \(the default\) or redis/],
    ['an unknown engine key', 'engine: {type: redis, nodes: "h:1", passwd: x}\n', /engine: unknown setting 'passwd' \(there are type, nodes, password, password-file, tls, namespace\)/],
    ['a namespace that cannot go into a hash tag', 'engine: {type: redis, nodes: "h:1", namespace: "a}b"}\n', /engine.namespace: 'a}b' is not a namespace: 1 to 64 letters, digits, _ or -/],
    ['password and password-file', 'engine: {type: redis, nodes: "h:1", password: a, password-file: b}\n', /give either password or password-file, not both/],
    ['redis settings on sqlite', 'engine: {type: sqlite, nodes: "h:1"}\n', /nodes, password, password-file, tls and namespace belong to type redis/],
    ['a TLS certificate without its key', 'engine: {type: redis, nodes: "h:1", tls: {cert: c.pem}}\n', /engine.tls: cert and key go together/],
    ['an unknown TLS key', 'engine: {type: redis, nodes: "h:1", tls: {ca-file: c.pem}}\n', /engine.tls: unknown setting 'ca-file'/],
    ['a list as engine', 'engine: [redis]\n', /engine: expected sqlite, redis or a mapping/],
  ];
  for (const [what, text, message] of badFiles) {
    it(`refuses ${what} in the configuration file`, () => {
      const path = file('bad.yaml', text);
      expect(() => readConfigFile(path)).to.throw(ConfigError, message);
    });
  }
});
