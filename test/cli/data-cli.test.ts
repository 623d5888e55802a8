import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { grid, gridOnTerminal } from '../support/cli';
import { tempDir, useServer } from '../support/server';

const BOOK = `package shop;
/* @Indexed */
message Book {
  /* @Keyword(sortable = true) */ optional string isbn = 1;
  /* @Text */ optional string title = 2;
  /* @Basic(sortable = true) */ optional int32 year = 3;
}
`;

describe('grid query, schema, counter, task (over REST, against a running server)', function () {
  this.timeout(60_000);
  const server = useServer();
  let dir: string;
  const as = (user: string) => ['--server', server.url, '-u', user, '-p', `${user}-pw`];

  before(async () => {
    dir = tempDir();
  });

  describe('grid schema', () => {
    it('upload FILE (named after the file, or --name), ls, get, rm', async () => {
      writeFileSync(join(dir, 'shop.proto'), BOOK);
      writeFileSync(join(dir, 'other.proto'), 'package other;\nmessage Note { optional string text = 1; }\n');
      expect(await grid(['schema', 'upload', join(dir, 'shop.proto'), ...as('admin')])).to.deep.include({ code: 0, stdout: "schema 'shop.proto' uploaded\n" });
      expect(await grid(['schema', 'upload', join(dir, 'other.proto'), '--name', 'copy.proto', ...as('admin')])).to.deep.include({ code: 0 });
      expect((await grid(['schema', 'ls', ...as('admin')])).stdout.split('\n')).to.include.members(['shop.proto', 'copy.proto']);
      expect((await grid(['schema', 'get', 'shop.proto', ...as('admin')])).stdout).to.equal(BOOK);
      expect(await grid(['schema', 'rm', 'copy.proto', ...as('admin')])).to.deep.include({ code: 0, stdout: "schema 'copy.proto' removed\n" });
      expect(await grid(['schema', 'get', 'copy.proto', ...as('admin')])).to.deep.equal({ code: 1, stdout: '', stderr: "grid: there is no schema named 'copy.proto' (see `grid schema ls`)\n" });
    });

    it('a schema with errors is stored (as the server does) but the command says so and exits 1', async () => {
      writeFileSync(join(dir, 'broken.proto'), 'message {');
      const r = await grid(['schema', 'upload', join(dir, 'broken.proto'), ...as('admin')]);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.match(/^grid: schema 'broken\.proto' was stored but has errors: .+\n$/);
      expect((await grid(['schema', 'ls', ...as('admin')])).stdout).to.match(/^broken\.proto\terror: /m);
    });
  });

  describe('grid query', () => {
    before(async () => {
      await server.as('admin').put('/rest/v2/schemas/shop.proto', BOOK);
      await server.as('admin').createCache('books', {
        'local-cache': { encoding: { 'media-type': 'application/x-protostream' }, indexing: { enabled: true, 'indexed-entities': ['shop.Book'] } },
      });
      const books = [['1', 'The Game of Life', 1970], ['2', 'Life of Brian', 1979], ['3', 'Game Theory', 1944]] as const;
      for (const [isbn, title, year] of books) {
        const value = JSON.stringify({ _type: 'shop.Book', isbn, title, year });
        const r = await grid(['put', 'books', isbn, value, '--content-type', 'application/json', ...as('admin')]);
        expect(r.code, r.stderr).to.equal(0);
      }
    });

    it('piped, prints the server\'s JSON as it is; --max-results and --offset page', async () => {
      const r = await grid(['query', 'books', 'from shop.Book where year > 1960 order by year', ...as('admin')]);
      expect(r.code, r.stderr).to.equal(0);
      const answer = JSON.parse(r.stdout) as { hit_count: number; hits: Array<{ hit: { title: string } }> };
      expect(answer.hit_count).to.equal(2);
      expect(answer.hits.map((h) => h.hit.title)).to.deep.equal(['The Game of Life', 'Life of Brian']);
      const page = JSON.parse((await grid(['query', 'books', 'from shop.Book order by year', '--max-results', '1', '--offset', '1', ...as('admin')])).stdout) as typeof answer;
      expect(page.hits.map((h) => h.hit.title)).to.deep.equal(['The Game of Life']);
    });

    it('on a terminal, a table of the hits and a count; --format json there too', async () => {
      const r = await gridOnTerminal(['query', 'books', 'select b.title, b.year from shop.Book b order by b.year', ...as('admin')]);
      expect(r.code, r.stdout).to.equal(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines[0]).to.match(/^title\s+year$/);
      expect(lines[1]).to.match(/^-+\s+-+$/);
      expect(lines.slice(2, 5).map((l) => l.split(/\s{2,}/))).to.deep.equal([['Game Theory', '1944'], ['The Game of Life', '1970'], ['Life of Brian', '1979']]);
      expect(lines[5]).to.equal('3 of 3 hits');
      const json = await gridOnTerminal(['query', 'books', 'from shop.Book', '--format', 'json', ...as('admin')]);
      expect(JSON.parse(json.stdout)).to.have.property('hit_count', 3);
    });

    it('a bad query is the server\'s message in one sentence, exit 1', async () => {
      const r = await grid(['query', 'books', 'from nowhere.Thing', ...as('admin')]);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.match(/^grid: the server refused \(400\): Error executing search: .*nowhere\.Thing.*\n$/);
    });
  });

  describe('grid counter', () => {
    before(async () => {
      await server.as('admin').post('/rest/v2/counters/visits', '{"strong-counter":{"initial-value":10}}', { 'Content-Type': 'application/json' });
      await server.as('admin').post('/rest/v2/counters/hits', '{"weak-counter":{"initial-value":0}}', { 'Content-Type': 'application/json' });
    });

    it('create (strong by default; weak, 64-bit initial value, persistent), a name taken, rm', async () => {
      expect(await grid(['counter', 'create', 'c1', ...as('admin')])).to.deep.include({ code: 0, stdout: "counter 'c1' created\n" });
      expect((await server.as('admin').get('/rest/v2/counters/c1/config')).json()).to.have.property('strong-counter');
      const big = '9007199254740993';
      expect((await grid(['counter', 'create', 'c2', '--type', 'weak', '--initial-value', big, '--storage', 'persistent', ...as('admin')])).code).to.equal(0);
      expect((await server.as('admin').get('/rest/v2/counters/c2')).text).to.equal(big);
      expect((await server.as('admin').get('/rest/v2/counters/c2/config')).json()).to.deep.nested.include({ 'weak-counter.storage': 'PERSISTENT' });
      expect(await grid(['counter', 'create', 'c1', ...as('admin')])).to.deep.equal({ code: 1, stdout: '', stderr: "grid: a counter named 'c1' exists: choose another name or `grid counter rm c1`\n" });
      expect(await grid(['counter', 'rm', 'c1', ...as('admin')])).to.deep.include({ code: 0, stdout: "counter 'c1' removed\n" });
      expect((await server.as('admin').get('/rest/v2/counters/c1')).status).to.equal(404);
      expect((await grid(['counter', 'create', 'c3', '--type', 'medium', ...as('admin')])).stderr).to.contain("--type is strong or weak, not 'medium'");
    });

    it('ls, get, add (1, a delta, a negative delta; weak counters too), reset', async () => {
      expect((await grid(['counter', 'ls', ...as('application')])).stdout.split('\n')).to.include.members(['visits', 'hits']);
      expect((await grid(['counter', 'get', 'visits', ...as('application')])).stdout).to.equal('10\n');
      expect((await grid(['counter', 'add', 'visits', ...as('application')])).stdout).to.equal('11\n');
      expect((await grid(['counter', 'add', 'visits', '5', ...as('application')])).stdout).to.equal('16\n');
      expect((await grid(['counter', 'add', 'visits', '-20', ...as('application')])).stdout).to.equal('-4\n');
      expect((await grid(['counter', 'add', 'hits', '3', ...as('application')])).stdout).to.equal('3\n');
      expect(await grid(['counter', 'reset', 'visits', ...as('application')])).to.deep.include({ code: 0, stdout: "counter 'visits' reset\n" });
      expect((await server.as('admin').get('/rest/v2/counters/visits')).text).to.equal('10');
    });

    it('a missing counter, a delta that is no number', async () => {
      expect(await grid(['counter', 'get', 'nope', ...as('application')])).to.deep.equal({ code: 1, stdout: '', stderr: "grid: there is no counter named 'nope' (see `grid counter ls`)\n" });
      const r = await grid(['counter', 'add', 'visits', 'lots', ...as('application')]);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.contain("counter add takes a whole number, not 'lots'");
    });
  });

  describe('grid task', () => {
    it('upload FILE, ls, exec with --param; a deployer may not upload', async () => {
      writeFileSync(join(dir, 'hello.js'), '// mode=local,language=javascript,parameters=[greetee]\n"Hello " + greetee');
      expect(await grid(['task', 'upload', join(dir, 'hello.js'), ...as('admin')])).to.deep.include({ code: 0, stdout: "task 'hello.js' uploaded\n" });
      expect((await grid(['task', 'ls', ...as('admin')])).stdout.split('\n')).to.include('hello.js\tScript\tgreetee');
      expect(await grid(['task', 'exec', 'hello.js', '--param', 'greetee=world', ...as('admin')])).to.deep.include({ code: 0, stdout: '"Hello world"\n' });
      const denied = await grid(['task', 'upload', join(dir, 'hello.js'), '--name', 'other.js', ...as('deployer')]);
      expect(denied.code).to.equal(1);
      expect(denied.stderr).to.match(/^grid: user 'deployer' may not do this on /);
      const bad = await grid(['task', 'exec', 'hello.js', '--param', 'greetee', ...as('admin')]);
      expect([bad.code, bad.stderr]).to.deep.equal([2, "grid: --param takes NAME=VALUE, not 'greetee'\nRun 'grid task --help' for usage.\n"]);
    });
  });
});
