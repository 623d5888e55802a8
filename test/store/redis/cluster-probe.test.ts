import { expect } from 'chai';
import { ConfigError } from '../../../src/config/server-config-error';
import { checkVersion, type ClusterFacts, powerDurabilityGaps } from '../../../src/store/redis/cluster-probe';

// The parts of the start checks no Redis on this machine can show (an old version, an unreadable
// master); the rest runs against real Redis processes in test/cli/redis-engine-start.test.ts.

describe('redis engine start checks: versions and --durability power', () => {
  it('accepts Redis 7 and later, refuses older ones naming the version found', () => {
    expect(() => checkVersion('h:1', '7.0.15')).to.not.throw();
    expect(() => checkVersion('h:1', '8.2.1')).to.not.throw();
    expect(() => checkVersion('h:1', '6.2.14')).to.throw(ConfigError, /^h:1 runs Redis 6\.2\.14; the redis engine needs Redis 7 or later$/);
    expect(() => checkVersion('h:1', 'unknown')).to.throw(ConfigError, /runs Redis unknown/);
  });

  const facts = (masters: ClusterFacts['masters']): ClusterFacts => ({ seed: 'a:1', version: '7.0.15', masters });

  it('finds nothing missing when every master fsyncs its AOF always and has a replica', () => {
    expect(powerDurabilityGaps(facts([
      { address: 'a:1', appendonly: 'yes', appendfsync: 'always', replicas: 1 },
      { address: 'b:2', appendonly: 'yes', appendfsync: 'always', replicas: 2 },
    ]))).to.deep.equal([]);
  });

  it('names each missing setting with its node', () => {
    expect(powerDurabilityGaps(facts([
      { address: 'a:1', appendonly: 'no', appendfsync: 'everysec', replicas: 0 },
      { address: 'b:2', replicas: 1, unreadable: "ERR unknown command 'CONFIG'" },
    ]))).to.deep.equal([
      'appendonly is no on a:1 (power needs yes)',
      'appendfsync is everysec on a:1 (power needs always)',
      'a:1 has no replica (power needs one per master)',
      "the settings of b:2 cannot be read (ERR unknown command 'CONFIG')",
    ]);
  });
});
