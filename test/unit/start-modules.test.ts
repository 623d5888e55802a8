import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

// The Redis client library is loaded only by what runs on the redis engine: a start, a `grid user`
// or a CLI command on SQLite does not pay for it (docs/benchmark.md, cold start).
describe('modules loaded for a start on SQLite', () => {
  it('leave the Redis client library out until the redis engine asks for it', () => {
    const dist = resolve(__dirname, '../../src');
    const script = `
      for (const m of ['cli/main', 'cli/start.command', 'cli/user.command', 'main', 'container']) require(${JSON.stringify(dist)} + '/' + m + '.js');
      const loaded = (name) => Object.keys(require.cache).some((k) => k.includes('/node_modules/' + name + '/'));
      const before = loaded('ioredis');
      require(${JSON.stringify(dist)} + '/store/redis/cluster-client.js');
      process.stdout.write(JSON.stringify([before, loaded('ioredis')]));`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(r.stderr).to.equal('');
    expect(JSON.parse(r.stdout)).to.deep.equal([false, true]);
  });
});
