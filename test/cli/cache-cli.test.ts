import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { grid } from '../support/cli';
import { tempDir, useServer } from '../support/server';

describe('grid cache … and grid get/put/rm/keys (over REST, against a running server)', function () {
  this.timeout(30_000);
  const server = useServer();
  const as = (user: string) => ['--server', server.url, '-u', user, '-p', `${user}-pw`];

  describe('grid cache', () => {
    it('create (from a template, a JSON, XML or YAML file), ls, size, stats, clear, delete', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'c.json'), '{"local-cache":{"statistics":true}}');
      writeFileSync(join(dir, 'c.xml'), '<local-cache statistics="true"/>');
      writeFileSync(join(dir, 'c.yaml'), 'localCache:\n  statistics: true\n');
      expect(await grid(['cache', 'create', 'from-template', '--template', 'org.infinispan.LOCAL', ...as('admin')])).to.deep.include({ code: 0, stdout: "cache 'from-template' created\n" });
      for (const ext of ['json', 'xml', 'yaml']) {
        const r = await grid(['cache', 'create', `from-${ext}`, '--file', join(dir, `c.${ext}`), ...as('admin')]);
        expect(r.code, r.stderr).to.equal(0);
      }
      const ls = await grid(['cache', 'ls', ...as('admin')]);
      expect(ls.stdout.split('\n')).to.include.members(['from-template', 'from-json', 'from-xml', 'from-yaml']);
      await server.as('admin').put('/rest/v2/caches/from-json/a', '1');
      expect((await grid(['cache', 'size', 'from-json', ...as('admin')])).stdout).to.equal('1\n');
      const stats = await grid(['cache', 'stats', 'from-json', ...as('admin')]);
      expect(JSON.parse(stats.stdout)).to.have.property('current_number_of_entries');
      expect(await grid(['cache', 'clear', 'from-json', ...as('admin')])).to.deep.include({ code: 0, stdout: "cache 'from-json' cleared\n" });
      expect((await server.as('admin').get('/rest/v2/caches/from-json?action=size')).text).to.equal('0');
      expect(await grid(['cache', 'delete', 'from-json', ...as('admin')])).to.deep.include({ code: 0, stdout: "cache 'from-json' deleted\n" });
      expect((await server.as('admin').head('/rest/v2/caches/from-json')).status).to.equal(404);
    });

    it('says in one sentence that a cache exists, or does not, and exits 1', async () => {
      await server.as('admin').createCache('taken');
      const exists = await grid(['cache', 'create', 'taken', ...as('admin')]);
      expect(exists).to.deep.equal({ code: 1, stdout: '', stderr: "grid: a cache named 'taken' exists: choose another name or `grid cache delete taken`\n" });
      const missing = await grid(['cache', 'size', 'nowhere', ...as('admin')]);
      expect(missing).to.deep.equal({ code: 1, stdout: '', stderr: "grid: there is no cache named 'nowhere' (see `grid cache ls`)\n" });
    });

    it('a missing --file is one sentence, and nothing is created', async () => {
      const r = await grid(['cache', 'create', 'never', '--file', '/no/such/file.json', ...as('admin')]);
      expect(r).to.deep.equal({ code: 1, stdout: '', stderr: 'grid: /no/such/file.json does not exist\n' });
      expect((await server.as('admin').head('/rest/v2/caches/never')).status).to.equal(404);
    });

    it('a user without the permission gets a sentence naming the user, exit 1, and nothing changes', async () => {
      await server.as('admin').createCache('guarded');
      const r = await grid(['cache', 'delete', 'guarded', ...as('observer')]);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.match(/^grid: user 'observer' may not do this on http:\/\/127\.0\.0\.1:\d+ \(.+\)\n$/);
      expect((await server.as('admin').head('/rest/v2/caches/guarded')).status).to.equal(204);
    });
  });

  describe('grid get/put/rm/keys', () => {
    before(async () => server.as('admin').createCache('kv'));

    it('put VALUE, get prints the exact bytes, keys lists, rm removes', async () => {
      expect(await grid(['put', 'kv', 'k1', 'hello world', ...as('application')])).to.deep.include({ code: 0, stdout: "put 'k1' into 'kv'\n" });
      expect(await grid(['get', 'kv', 'k1', ...as('application')])).to.deep.include({ code: 0, stdout: 'hello world' });
      expect((await grid(['keys', 'kv', ...as('application')])).stdout).to.equal('k1\n');
      expect(await grid(['rm', 'kv', 'k1', ...as('application')])).to.deep.include({ code: 0, stdout: "removed 'k1' from 'kv'\n" });
      expect((await server.as('admin').get('/rest/v2/caches/kv/k1')).status).to.equal(404);
    });

    it('put --file F and --file - (standard input) with --ttl, and a key with a slash', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'v.json'), '{"a":1}');
      expect((await grid(['put', 'kv', 'a/b', '--file', join(dir, 'v.json'), '--ttl', '600', ...as('admin')])).code).to.equal(0);
      const stored = await server.as('admin').get('/rest/v2/caches/kv/a%2Fb');
      expect(stored.text).to.equal('{"a":1}');
      expect(Number(stored.headers.get('timeToLiveSeconds'))).to.equal(600);
      expect((await grid(['put', 'kv', 'piped', '--file', '-', ...as('admin')], { input: Buffer.from([0, 1, 2, 255]) })).code).to.equal(0);
      expect((await server.as('admin').get('/rest/v2/caches/kv/piped')).bytes).to.deep.equal(Buffer.from([0, 1, 2, 255]));
      expect((await grid(['get', 'kv', 'a/b', ...as('admin')])).stdout).to.equal('{"a":1}');
    });

    it('a missing key and a missing cache are told apart; a negative --ttl is a value, not a flag', async () => {
      expect(await grid(['get', 'kv', 'absent', ...as('admin')])).to.deep.equal({ code: 1, stdout: '', stderr: "grid: cache 'kv' has no key 'absent'\n" });
      expect(await grid(['rm', 'nocache', 'k', ...as('admin')])).to.deep.equal({ code: 1, stdout: '', stderr: "grid: there is no cache named 'nocache' (see `grid cache ls`)\n" });
      expect((await grid(['put', 'kv', 'forever', 'v', '--ttl', '-1', ...as('admin')])).code).to.equal(0);
    });

    it('put needs exactly one of VALUE and --file (usage, exit 2); an observer may read, not write', async () => {
      const both = await grid(['put', 'kv', 'k', 'v', '--file', 'x', ...as('admin')]);
      expect(both.code).to.equal(2);
      expect(both.stderr).to.contain('put needs a VALUE or --file FILE');
      await server.as('admin').put('/rest/v2/caches/kv/shared', 'seen');
      expect((await grid(['get', 'kv', 'shared', ...as('observer')])).stdout).to.equal('seen');
      const write = await grid(['put', 'kv', 'shared', 'changed', ...as('observer')]);
      expect(write.code).to.equal(1);
      expect(write.stderr).to.match(/^grid: user 'observer' may not do this on /);
      expect((await server.as('admin').get('/rest/v2/caches/kv/shared')).text).to.equal('seen');
    });
  });
});
