import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostCheckNames, isLoopbackHost } from '../../../src/config/allowed-hosts';
import { browserSettingsOf } from '../../../src/config/browser-settings';
import { type CorsRuleConfig, parseCorsAllow } from '../../../src/config/cors-rules';
import { ConfigError, readConfigFile, resolveConfig } from '../../../src/config/server-config';

const PARTNER: CorsRuleConfig = {
  name: 'partner', allowCredentials: true, allowedOrigins: ['https://partner.example', 'http://partner.example:8080'],
  allowedMethods: ['GET', 'PUT'], allowedHeaders: ['Key-Content-Type'], maxAgeSeconds: 600, exposeHeaders: ['ETag', 'Last-Modified'],
};
const PUBLIC: CorsRuleConfig = { name: 'public', allowCredentials: false, allowedOrigins: ['*'], allowedMethods: ['GET'], allowedHeaders: [], exposeHeaders: [] };

describe('cors-rules in the server configuration file', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'grid-cors-config-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function file(name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  }

  it('reads rules in order from YAML, lists as comma-separated text or sequences', () => {
    const path = file('rules.yaml', [
      'server:',
      '  cors-rules:',
      '    - name: partner',
      '      allow-credentials: true',
      '      allowed-origins: https://partner.example, http://partner.example:8080',
      '      allowed-methods: [GET, put]',
      '      allowed-headers: Key-Content-Type',
      '      max-age-seconds: 600',
      '      expose-headers: [ETag, Last-Modified]',
      '    - name: public',
      '      allowed-origins: "*"',
      '      allowed-methods: GET',
    ].join('\n'));
    expect(readConfigFile(path).corsRules).to.deep.equal([PARTNER, PUBLIC]);
  });

  it('reads the same rules from JSON', () => {
    const rule = {
      name: 'partner', 'allow-credentials': true, 'allowed-origins': ['https://partner.example', 'http://partner.example:8080'],
      'allowed-methods': 'GET,PUT', 'allowed-headers': ['Key-Content-Type'], 'max-age-seconds': 600, 'expose-headers': 'ETag,Last-Modified',
    };
    const path = file('rules.json', JSON.stringify({ server: { 'cors-rules': [rule, { name: 'public', 'allowed-origins': '*', 'allowed-methods': 'GET' }] } }));
    expect(readConfigFile(path).corsRules).to.deep.equal([PARTNER, PUBLIC]);
  });

  it('reads the same rules from XML, as the original writes them (<cors-rules><cors-rule …>)', () => {
    const path = file('rules.xml', [
      '<server port="11222">',
      '  <cors-rules>',
      '    <cors-rule name="partner" allow-credentials="true" max-age-seconds="600">',
      '      <allowed-origins>https://partner.example,http://partner.example:8080</allowed-origins>',
      '      <allowed-methods>GET,PUT</allowed-methods>',
      '      <allowed-headers>Key-Content-Type</allowed-headers>',
      '      <expose-headers>ETag,Last-Modified</expose-headers>',
      '    </cors-rule>',
      '    <cors-rule name="public">',
      '      <allowed-origins>*</allowed-origins>',
      '      <allowed-methods>GET</allowed-methods>',
      '    </cors-rule>',
      '  </cors-rules>',
      '</server>',
    ].join('\n'));
    expect(readConfigFile(path).corsRules).to.deep.equal([PARTNER, PUBLIC]);
  });

  it('reads a single XML rule too', () => {
    const path = file('one.xml', '<server><cors-rules><cors-rule name="public"><allowed-origins>*</allowed-origins><allowed-methods>GET</allowed-methods></cors-rule></cors-rules></server>');
    expect(readConfigFile(path).corsRules).to.deep.equal([PUBLIC]);
  });

  const BAD: Array<[string, string, RegExp]> = [
    ['not a list', 'cors-rules: 42', /cors-rules must be a list of rules/],
    ['no name', 'cors-rules:\n  - allowed-origins: "*"\n    allowed-methods: GET', /cors-rules\[0\]: 'name' is required/],
    ['no origins', 'cors-rules:\n  - name: a\n    allowed-methods: GET', /\('a'\): allowed-origins is required/],
    ['empty origins', 'cors-rules:\n  - name: a\n    allowed-origins: ""\n    allowed-methods: GET', /allowed-origins must not be empty/],
    ['an origin with a path', 'cors-rules:\n  - name: a\n    allowed-origins: https://x.example/\n    allowed-methods: GET', /'https:\/\/x.example\/' is not an origin/],
    ['no methods', 'cors-rules:\n  - name: a\n    allowed-origins: "*"', /allowed-methods is required/],
    ['a bad method', 'cors-rules:\n  - name: a\n    allowed-origins: "*"\n    allowed-methods: GET POST', /'GET POST' is not a method name/],
    ['a bad header', 'cors-rules:\n  - name: a\n    allowed-origins: "*"\n    allowed-methods: GET\n    allowed-headers: "a:b"', /'a:b' is not a header name/],
    ['a negative max-age', 'cors-rules:\n  - name: a\n    allowed-origins: "*"\n    allowed-methods: GET\n    max-age-seconds: -1', /max-age-seconds: '-1' must be a whole number/],
    ['a bad boolean', 'cors-rules:\n  - name: a\n    allowed-origins: "*"\n    allowed-methods: GET\n    allow-credentials: yes', /allow-credentials: 'yes' must be true or false/],
    ['an unknown attribute', 'cors-rules:\n  - name: a\n    allowed-origins: "*"\n    allowed-methods: GET\n    allowed-origin: x', /unknown attribute 'allowed-origin'/],
    ['a name used twice', 'cors-rules:\n  - name: a\n    allowed-origins: "*"\n    allowed-methods: GET\n  - name: a\n    allowed-origins: "*"\n    allowed-methods: GET', /the name 'a' is used twice/],
  ];
  for (const [what, yaml, message] of BAD) {
    it(`refuses ${what} with a ConfigError naming the file and the rule`, () => {
      const path = file(`bad-${what.replace(/\W+/g, '-')}.yaml`, yaml);
      expect(() => readConfigFile(path)).to.throw(ConfigError, message).with.property('message').that.includes(path);
    });
  }
});

describe('the cors-allow property', () => {
  it('splits on commas, removes blanks and sets invalid origins apart', () => {
    expect(parseCorsAllow(' https://a.example ,http://b.example:81,, nope, https://c.example/path')).to.deep.equal({
      origins: ['https://a.example', 'http://b.example:81'], invalid: ['nope', 'https://c.example/path'],
    });
    expect(parseCorsAllow(undefined)).to.deep.equal({ origins: [], invalid: [] });
  });

  it('reaches the CORS settings before the configured rules; invalid origins are warned about', () => {
    const config = resolveConfig({ corsRules: [PUBLIC] }, { properties: { 'grid.server.rest.cors-allow': 'https://a.example,bad' } }, {});
    const warnings: Array<Record<string, unknown>> = [];
    const settings = browserSettingsOf(config, (fields) => warnings.push(fields));
    expect(settings.cors).to.deep.equal({ allowAll: ['https://a.example'], rules: [PUBLIC] });
    expect(warnings).to.deep.equal([{ origin: 'bad', property: 'grid.server.rest.cors-allow' }]);
  });
});

describe('allowed-hosts and the Host check', () => {
  it('reads allowed-hosts from the file and the property, lower-cased', () => {
    const config = resolveConfig({ allowedHosts: ['grid.example'] }, { properties: { 'grid.server.rest.allowed-hosts': 'Other.Example, .corp.example' } }, {});
    expect(config.allowedHosts).to.deep.equal(['grid.example', 'other.example', '.corp.example']);
  });

  it('refuses a name with a scheme, port or path', () => {
    for (const bad of ['http://grid.example', 'grid.example:8080', 'grid.example/x', 'a b']) {
      expect(() => resolveConfig({}, { properties: { 'grid.server.rest.allowed-hosts': bad } }, {}), bad).to.throw(ConfigError, /is not a host name/);
    }
  });

  it('is on for a loopback address, off elsewhere unless names are configured, off with *', () => {
    expect(hostCheckNames('127.0.0.1', [])).to.deep.equal([]);
    expect(hostCheckNames('::1', ['grid.test'])).to.deep.equal(['grid.test']);
    expect(hostCheckNames('0.0.0.0', [])).to.equal(undefined);
    expect(hostCheckNames('0.0.0.0', ['grid.test'])).to.deep.equal(['grid.test']);
    expect(hostCheckNames('grid.lan', ['grid.test']), 'the name it listens on').to.deep.equal(['grid.test', 'grid.lan']);
    expect(hostCheckNames('127.0.0.1', ['*'])).to.equal(undefined);
  });

  it('knows loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(h), h).to.equal(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.2', 'grid.example', '128.0.0.1']) expect(isLoopbackHost(h), h).to.equal(false);
  });
});

describe('--no-auth and the listen address', () => {
  it('is refused on a non-loopback address with a ConfigError that says how to proceed', () => {
    expect(() => resolveConfig({}, { authEnabled: false, host: '0.0.0.0' }, {})).to.throw(ConfigError, /--allow-remote-no-auth/);
    expect(() => resolveConfig({ host: '192.168.1.2', authEnabled: false }, {}, {})).to.throw(ConfigError, /192\.168\.1\.2/);
  });

  it('is accepted on loopback, or anywhere when forced', () => {
    expect(resolveConfig({}, { authEnabled: false }, {}).authEnabled).to.equal(false);
    expect(resolveConfig({}, { authEnabled: false, host: 'localhost' }, {}).host).to.equal('localhost');
    expect(resolveConfig({}, { authEnabled: false, host: '0.0.0.0', allowRemoteNoAuth: true }, {}).host).to.equal('0.0.0.0');
    expect(resolveConfig({ allowRemoteNoAuth: true, authEnabled: false, host: '::' }, {}, {}).host).to.equal('::');
  });

  it('reads allow-remote-no-auth from the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'grid-noauth-'));
    try {
      const path = join(dir, 'c.yaml');
      writeFileSync(path, 'auth: false\nhost: 0.0.0.0\nallow-remote-no-auth: true');
      expect(readConfigFile(path)).to.deep.include({ allowRemoteNoAuth: true, authEnabled: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
