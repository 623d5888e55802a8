import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS, LIMIT_NAMES } from '../../../src/config/limits';
import { ConfigError, readConfigFile, readLimits, resolveConfig } from '../../../src/config/server-config';

describe('limits (docs/security.md "Limits")', () => {
  it('has a kebab-case name for every limit', () => {
    expect(LIMIT_NAMES.map(([name]) => name)).to.include.members(['config-bytes', 'schema-fields', 'listeners-per-user', 'headers-timeout']);
    expect(LIMIT_NAMES).to.have.length(Object.keys(DEFAULT_LIMITS).length);
  });

  it('reads sizes with units and counts as integers', () => {
    expect(readLimits({ 'config-bytes': '2MiB', 'schema-fields': '1000', 'headers-timeout': 5000 }, '--limit'))
      .to.deep.equal({ configBytes: 2 * 1024 * 1024, schemaFields: 1000, headersTimeout: 5000 });
    expect(readLimits({ 'schema-total-bytes': '16MiB', 'schema-total-declarations': '100000' }, '--limit'))
      .to.deep.equal({ schemaTotalBytes: 16 * 1024 * 1024, schemaTotalDeclarations: 100_000 });
    expect(readLimits({ 'query-answer-bytes': '64MiB', 'query-timeout': '5000', 'query-rows': 100, 'query-expansion-terms': '2000' }, '--limit'))
      .to.deep.equal({ queryAnswerBytes: 64 * 1024 * 1024, queryTimeout: 5000, queryRows: 100, queryExpansionTerms: 2000 });
  });

  it('refuses unknown names and values that are not positive integers', () => {
    expect(() => readLimits({ 'config-byte': '1' }, '--limit')).to.throw(ConfigError, /unknown limit 'config-byte'/);
    expect(() => readLimits({ listeners: '0' }, '--limit')).to.throw(ConfigError, /positive integer/);
    expect(() => readLimits({ listeners: 'many' }, '--limit')).to.throw(ConfigError, /positive integer/);
  });

  it('takes defaults, then the file, then the command line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'grid-limits-'));
    try {
      const file = join(dir, 'grid.yaml');
      writeFileSync(file, 'limits:\n  listeners: 10\n  config-depth: 8\n');
      const config = resolveConfig(readConfigFile(file), { limits: { listeners: 20 } }, {});
      expect(config.limits.listeners).to.equal(20);
      expect(config.limits.configDepth).to.equal(8);
      expect(config.limits.schemaBytes).to.equal(DEFAULT_LIMITS.schemaBytes);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
