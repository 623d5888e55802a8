import { expect } from 'chai';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { SandboxLimits } from '../../src/services/tasks/script-sandbox';
import type { TaskInfo } from '../../src/services/tasks/task.service';
import { startTestServer, useServer, withServer, type ServerUnderTest } from '../support/server';

/** Sets the sandbox's limits on every node of `server`: a script runs on whichever node gets the request. */
function configureSandbox(server: ServerUnderTest, limits: Partial<SandboxLimits>): void {
  for (const node of server.nodes) node.services.tasks.sandbox.configure(limits);
}

const HELLO = '// mode=local,language=javascript,parameters=[greetee]\n"Hello " + greetee';

describe('tasks /rest/v2/tasks', () => {
  const server = useServer();
  const admin = server.as('admin');
  const app = server.as('application');
  let n = 0;
  const fresh = () => `task-${++n}`;
  const task = (name: string, action = '', query = '') => `/rest/v2/tasks/${encodeURIComponent(name)}${action ? `?action=${action}` : ''}${query}`;
  const upload = async (script: string, name = fresh()) => {
    const r = await admin.put(task(name), script, { 'Content-Type': 'text/plain' });
    expect(r.status, r.text).to.equal(200);
    return name;
  };
  const exec = (name: string, query = '', client = app) => client.post(task(name, 'exec', query));

  before(async () => {
    configureSandbox(server, { timeoutMs: 1_000, memoryMb: 32 });
    await admin.createCache('scripted');
    await admin.createCache('ordering');
  });

  describe('PUT|POST /rest/v2/tasks/{name}', () => {
    it('stores a script (200, empty) and replaces it with either method', async () => {
      const name = fresh();
      const put = await admin.put(task(name), HELLO);
      expect(put.status).to.equal(200);
      expect(put.text).to.equal('');
      expect((await admin.post(task(name), '// parameters=[a]\n"again " + a')).status).to.equal(200);
      expect((await exec(name, '&param.a=x')).json()).to.equal('again x');
    });

    it('answers 500 ISPN027506 for an unknown header key and stores nothing', async () => {
      const name = fresh();
      const r = await admin.put(task(name), '// mode=local,colour=blue\n1');
      expect(r.status).to.equal(500);
      expect(r.text).to.equal("ISPN027506: Unknown script mode: 'colour'");
      expect((await admin.get(task(name, 'script'))).status).to.equal(404);
    });

    it('answers 400 ISPN027511 when parameters is not an array', async () => {
      const r = await admin.put(task(fresh()), '// parameters=a\n1');
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('ISPN027511: Script parameters must be declared using the unquoted array notation, e.g. [a,b,c]');
    });

    it('answers 400 ISPN027507 for a language or extension other than JavaScript', async () => {
      const lang = await admin.put(task('py-task'), '# language=python\nprint(1)');
      expect(lang.status).to.equal(400);
      expect(lang.text).to.equal("ISPN027507: Cannot find an appropriate script engine for script 'py-task'");
      expect((await admin.put(task('script.groovy'), 'println 1')).status).to.equal(400);
      expect((await admin.put(task(fresh()), '// language=js\n1')).status).to.equal(200);
      expect((await admin.put(task('named.js'), '1')).status).to.equal(200);
    });

    it('answers 400 ISPN027504 with line:column for a script that does not compile, and stores nothing', async () => {
      const name = fresh();
      for (const method of ['PUT', 'POST']) {
        const r = await admin.request(method, task(name), { body: '// mode=local,language=javascript\nvar x = (1 + ;\n' });
        expect([r.status, r.text], method).to.deep.equal([400, `ISPN027504: Compiler error for script '${name}': SyntaxError: Unexpected token ';' at 2:14`]);
      }
      expect((await admin.get(task(name, 'script'))).status).to.equal(404);
      const kept = await upload('"first"');
      expect((await admin.put(task(kept), '"unterminated')).status).to.equal(400);
      expect((await exec(kept)).json(), 'the stored script stays').to.equal('first');
      // what compiles is stored, even when it would fail when run
      expect((await admin.put(task(fresh()), 'undefinedFunction()')).status).to.equal(200);
    });

    it('answers 413 for a script larger than script-bytes (1 MiB), and stores nothing', async () => {
      const name = fresh();
      const big = `// ${'x'.repeat(1024 * 1024)}\n1`;
      const r = await admin.put(task(name), big);
      expect(r.status).to.equal(413);
      expect(r.text).to.contain('larger than 1048576 bytes');
      expect((await admin.get(task(name, 'script'))).status).to.equal(404);
      expect((await admin.put(task(name), big.slice(big.length - 1024 * 1024))).status, 'exactly 1 MiB').to.equal(200);
    });

    it('answers 400 for a bad mode (one bad input)', async () => {
      const r = await admin.put(task(fresh()), '// mode=everywhere\n1');
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('No enum constant org.infinispan.scripting.impl.ExecutionMode.EVERYWHERE');
    });

    it('needs ADMIN', async () => {
      for (const role of ['deployer', 'application', 'observer', 'monitor'] as const) {
        expect((await server.as(role).put(task(fresh()), HELLO)).status, role).to.equal(403);
      }
      expect((await server.anonymous().put(task(fresh()), HELLO)).status).to.equal(401);
    });
  });

  describe('GET /rest/v2/tasks/{name}?action=script', () => {
    it('answers the script exactly as uploaded, as text/plain', async () => {
      const script = '// mode=local, parameters=[a]\r\n// été ✓\n\t"x" + a  \n';
      const name = await upload(script);
      const r = await admin.get(task(name, 'script'));
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.match(/^text\/plain/);
      expect(r.text).to.equal(script);
    });

    it('decodes the body with the Content-Type charset', async () => {
      const name = fresh();
      await admin.put(task(name), Buffer.from('"café"', 'latin1'), { 'Content-Type': 'text/plain; charset=ISO-8859-1' });
      expect((await admin.get(task(name, 'script'))).text).to.equal('"café"');
      expect((await exec(name)).json()).to.equal('café');
    });

    it('answers 404 ISPN012048 for an unknown script, 400 without the action, and needs ADMIN', async () => {
      const r = await admin.get(task('nope', 'script'));
      expect(r.status).to.equal(404);
      expect(r.text).to.equal("ISPN012048: No such script 'nope'");
      expect((await admin.get(task('nope'))).status).to.equal(400);
      const name = await upload(HELLO);
      expect((await server.as('deployer').get(task(name, 'script'))).status).to.equal(403);
    });
  });

  describe('GET /rest/v2/tasks', () => {
    it('lists scripts with the task shape, and the admin tasks unless type=user', async () => {
      const name = await upload('// mode=distributed,parameters=[a,b],role=deployer\n1');
      const all = (await server.as('monitor').get('/rest/v2/tasks')).json<TaskInfo[]>();
      expect(all.find((t) => t.name === name)).to.deep.equal({
        name, type: 'Script', parameters: ['a', 'b'], execution_mode: 'ALL_NODES', instantiation_mode: 'SHARED', allowed_role: null,
      });
      const cacheCreate = all.find((t) => t.name === '@@cache@create');
      expect(cacheCreate).to.include({ type: 'AdminServerTask', execution_mode: 'ONE_NODE', instantiation_mode: 'SHARED', allowed_role: null });
      const user = (await admin.get('/rest/v2/tasks?type=USER')).json<TaskInfo[]>();
      expect(user.map((t) => t.name)).to.include(name);
      expect(user.filter((t) => t.name.startsWith('@@'))).to.deep.equal([]);
      expect(user.every((t) => t.type === 'Script')).to.equal(true);
    });

    it('lists the original\'s admin tasks: @@logging@set and @@logging@remove (run on all nodes), no @@template@names', async () => {
      const all = (await admin.get('/rest/v2/tasks')).json<TaskInfo[]>();
      const names = all.filter((t) => t.name.startsWith('@@')).map((t) => t.name);
      expect(names).to.include.members(['@@logging@set', '@@logging@remove', '@@cache@names', '@@template@create', '@@template@remove']);
      expect(names).to.not.include('@@template@names');
      expect(all.find((t) => t.name === '@@logging@set')).to.deep.equal({
        name: '@@logging@set', type: 'AdminServerTask', parameters: ['level', 'create', 'loggerName', 'appenders'],
        execution_mode: 'ALL_NODES', instantiation_mode: 'SHARED', allowed_role: null,
      });
      expect(all.find((t) => t.name === '@@logging@remove')).to.include({ execution_mode: 'ALL_NODES' }).and.deep.include({ parameters: ['loggerName'] });
    });

    it('needs authentication', async () => {
      expect((await server.anonymous().get('/rest/v2/tasks')).status).to.equal(401);
    });
  });

  describe('POST /rest/v2/tasks/{name}?action=exec', () => {
    it('runs hello.js: parameters are globals and a string result is a JSON string', async () => {
      const name = await upload(HELLO);
      const r = await exec(name, '&param.greetee=Friend');
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.match(/^application\/json/);
      expect(r.text).to.equal('"Hello Friend"');
    });

    it('encodes numbers, booleans, arrays, objects, undefined as JSON and byte arrays as raw text/plain', async () => {
      const cases: Array<[string, string]> = [
        ['6 * 7', '42'], ['1.5', '1.5'], ['true', 'true'], ['[1, "a", [2]]', '[1,"a",[2]]'],
        ['({a: 1, b: "x"})', '{"a":1,"b":"x"}'], ['undefined', 'null'], ['let x = 2; x + 1', '3'],
      ];
      for (const [script, expected] of cases) {
        const r = await exec(await upload(script));
        expect(r.text, script).to.equal(expected);
      }
      const bytes = await exec(await upload('new Uint8Array([104, 105, 0xc3, 0xa9])'));
      expect(bytes.headers.get('content-type')).to.match(/^text\/plain/);
      expect(bytes.bytes).to.deep.equal(Buffer.from([104, 105, 0xc3, 0xa9]));
    });

    it('binds cache when cache= is given: get, put, remove, size, durable before the answer', async () => {
      await admin.put('/rest/v2/caches/scripted/seed', 'planted', { 'Content-Type': 'text/plain' });
      const name = await upload([
        '// parameters=[k,v]',
        'const before = cache.get(k);',
        'const previous = cache.put(k, v);',
        'cache.put("tmp", "x"); const removed = cache.remove("tmp");',
        '[before, previous, cache.get(k), removed, cache.get("tmp"), cache.get("seed"), cache.size(), cache.getName()]',
      ].join('\n'));
      const r = await exec(name, '&cache=scripted&param.k=key1&param.v=value1');
      expect(r.status, r.text).to.equal(200);
      expect(r.json()).to.deep.equal([null, null, 'value1', 'x', null, 'planted', 2, 'scripted']);
      const read = await app.get('/rest/v2/caches/scripted/key1');
      expect(read.status).to.equal(200);
      expect(read.text).to.equal('value1');
    });

    it('keeps a script\'s writes of one key in order, and its reads and size after them', async () => {
      const name = await upload([
        'const seen = [];',
        'for (let i = 0; i < 40; i++) { cache.put("ordered", String(i)); seen.push(cache.get("ordered")); cache.put("n" + i, "v"); }',
        'cache.remove("ordered"); cache.put("ordered", "last");',
        '[seen.every((v, i) => v === String(i)), cache.get("ordered"), cache.size()]',
      ].join('\n'));
      const r = await exec(name, '&cache=ordering');
      expect(r.status, r.text).to.equal(200);
      expect(r.json()).to.deep.equal([true, 'last', 41]);
      expect((await app.get('/rest/v2/caches/ordering/ordered')).text).to.equal('last');
    });

    it('offers cacheManager.getCacheNames() and getCache(name)', async () => {
      const name = await upload('const c = cacheManager.getCache("scripted"); c.put("via-manager", "yes"); [cacheManager.getCacheNames().includes("scripted"), c.get("via-manager"), typeof cache]');
      expect((await exec(name)).json()).to.deep.equal([true, 'yes', 'undefined']);
    });

    it('answers 400 ISPN027002 for an unknown task and 404 for an unknown cache', async () => {
      const unknown = await exec('no-such-task');
      expect(unknown.status).to.equal(400);
      expect(unknown.text).to.equal("ISPN027002: Unknown task 'no-such-task'");
      const name = await upload(HELLO);
      const r = await exec(name, '&cache=no-such-cache&param.greetee=x');
      expect(r.status).to.equal(404);
      expect(r.text).to.include('ISPN012010');
    });

    it('answers 500 with the error message when the script throws', async () => {
      const r = await exec(await upload('throw new Error("boom")'));
      expect(r.status).to.equal(500);
      expect(r.text).to.equal('ISPN027503: Script execution error: Error: boom');
    });

    it('answers 400 naming a declared parameter that is not passed, and runs nothing', async () => {
      await admin.createCache('param-check');
      const name = await upload('// mode=local,parameters=[key,value]\ncache.put(key, value)');
      const missing = await exec(name, '&cache=param-check&param.key=k');
      expect([missing.status, missing.text]).to.deep.equal([400, "ISPN012040: Missing required argument 'param.value'"]);
      expect((await admin.get('/rest/v2/caches/param-check/k')).status, 'nothing ran').to.equal(404);
      expect((await exec(name, '&cache=param-check&param.key=k&param.value=')).status, 'an empty value is a value').to.equal(200);
      expect((await exec(await upload(HELLO))).text).to.equal("ISPN012040: Missing required argument 'param.greetee'");
    });

    it('answers 500 ISPN027509 for a distributed script without cache=, and a one-node list with it', async () => {
      const name = await upload('// mode=distributed\n"r"');
      const r = await exec(name);
      expect(r.status).to.equal(500);
      expect(r.text).to.equal(`ISPN027509: Distributed script '${name}' invoked without a cache binding`);
      expect((await exec(name, '&cache=scripted')).json()).to.deep.equal(['r']);
    });

    it('needs EXEC: application and deployer run, observer and monitor get 403', async () => {
      const name = await upload(HELLO);
      expect((await exec(name, '&param.greetee=d', server.as('deployer'))).status).to.equal(200);
      expect((await exec(name, '&param.greetee=o', server.as('observer'))).status).to.equal(403);
      expect((await exec(name, '&param.greetee=m', server.as('monitor'))).status).to.equal(403);
    });

    it("needs the script's role when it declares one", async () => {
      const name = await upload('// role=deployer\n"ran"');
      expect((await exec(name, '', server.as('deployer'))).json()).to.equal('ran');
      const denied = await exec(name, '', app);
      expect(denied.status).to.equal(403);
      expect(denied.text).to.include('ISPN000287');
    });

    it("checks the caller's permissions on the caches a script touches", async () => {
      const name = await upload('cache.put("observer-write", "x")');
      const r = await exec(name, '&cache=scripted', server.as('deployer'));
      expect(r.status).to.equal(200);
      await admin.createCache('secured', { 'local-cache': { security: { authorization: { roles: ['admin'] } } } });
      // a secured cache the caller holds no permission on is, for the script, not there
      const denied = await exec(name, '&cache=secured', server.as('deployer'));
      expect(denied.status).to.equal(404);
      const direct = await upload('cacheManager.getCache("secured").put("k", "v")');
      const refused = await exec(direct, '', server.as('deployer'));
      expect(refused.status).to.equal(500);
      expect(refused.text).to.include("Cache with name 'secured' not found");
      expect((await admin.get('/rest/v2/caches/secured/k')).status).to.equal(404);
    });

    it('runs the built-in admin tasks for ADMIN only', async () => {
      const names = await exec('@@cache@names', '', admin);
      expect(names.status).to.equal(200);
      // a byte[] result in the original: text/plain, the names of GET /caches (internal ones too) as a JSON array
      expect(names.headers.get('content-type')).to.match(/^text\/plain/);
      expect(names.json<string[]>()).to.have.members((await admin.get('/rest/v2/caches')).json<string[]>());
      expect(names.json<string[]>()).to.include('scripted').and.include('___script_cache').and.include('___protobuf_metadata');
      expect((await exec('@@cache@create', '&param.name=from-task&param.template=org.infinispan.LOCAL', admin)).status).to.equal(200);
      expect((await admin.get('/rest/v2/caches/from-task?action=config')).status).to.equal(200);
      expect((await exec('@@cache@names', '', app)).status).to.equal(403);
      const missing = await exec('@@cache@remove', '', admin);
      expect(missing.status).to.equal(400);
      expect(missing.text).to.equal("ISPN012040: Missing required argument 'name'");
    });
  });

  describe('POST /rest/v2/tasks/@@logging@set|remove?action=exec', () => {
    it('sets and removes a logger as PUT and DELETE /rest/v2/logging/loggers do', async () => {
      const set = await exec('@@logging@set', '&param.loggerName=org.example.tasks&param.level=debug&param.appenders=STDOUT', admin);
      expect(set.status).to.equal(200);
      const logger = (await admin.get('/rest/v2/logging/loggers')).json<Array<{ name: string; level: string; appenders: string[] }>>()
        .find((l) => l.name === 'org.example.tasks');
      expect(logger).to.deep.equal({ name: 'org.example.tasks', level: 'DEBUG', appenders: ['STDOUT'] });
      const bad = await exec('@@logging@set', '&param.loggerName=org.example.tasks&param.level=LOUD', admin);
      expect([bad.status, bad.text]).to.deep.equal([400, 'ISPN080036: Invalid level `LOUD`']);
      expect((await exec('@@logging@set', '&param.loggerName=org.example.tasks&param.level=INFO', app)).status).to.equal(403);
      expect((await exec('@@logging@remove', '&param.loggerName=org.example.tasks', admin)).status).to.equal(200);
      expect((await admin.get('/rest/v2/logging/loggers')).json<Array<{ name: string }>>().map((l) => l.name)).to.not.include('org.example.tasks');
      expect((await exec('@@logging@remove', '&param.loggerName=org.example.tasks', admin)).status).to.equal(404);
    });
  });

  describe('POST /rest/v2/tasks/@@template@create?action=exec', () => {
    it('defines a template, written with the template kinds as the original writes templates', async () => {
      const config = encodeURIComponent('{"local-cache":{"statistics":true}}');
      expect((await exec('@@template@create', `&param.name=task-template&param.configuration=${config}`, admin)).status).to.equal(200);
      const templates = (await admin.get('/rest/v2/container/cache-configs/templates')).json<Array<{ name: string; configuration: unknown }>>();
      expect(templates.find((t) => t.name === 'task-template')?.configuration).to.deep.equal({ 'task-template': { 'local-cache-configuration': { statistics: true } } });
      expect((await admin.post('/rest/v2/caches/from-task-template?template=task-template')).status).to.equal(200);
      expect((await admin.get('/rest/v2/caches/from-task-template?action=config')).json()).to.deep.equal({ 'from-task-template': { 'local-cache': { statistics: true } } });
    });
  });

  describe('the sandbox', () => {
    it('stops an infinite loop with 500 and keeps serving', async () => {
      const started = Date.now();
      const [looping, other] = await Promise.all([exec(await upload('while (true) {}')), admin.get('/rest/v2/caches/scripted?action=size')]);
      expect(looping.status).to.equal(500);
      expect(looping.text).to.equal('ISPN027503: Script execution error: script exceeded its time limit of 1000 ms');
      expect(other.status).to.equal(200);
      expect(Date.now() - started).to.be.below(5_000);
      expect((await exec(await upload(HELLO), '&param.greetee=again')).json()).to.equal('Hello again');
    });

    it('stops a memory bomb with 500 and keeps serving', async () => {
      const r = await exec(await upload('const hog = []; while (true) hog.push(new Array(1e5).fill("x"));'));
      expect(r.status).to.equal(500);
      expect(r.text).to.equal('ISPN027503: Script execution error: script exceeded its memory limit of 32 MB');
      const big = await exec(await upload('new ArrayBuffer(2 ** 30).byteLength'));
      expect(big.status).to.equal(500);
      expect((await app.get('/rest/v2/tasks')).status).to.equal(200);
    });

    it('has no require, process or host globals', async () => {
      const r = await exec(await upload('[typeof require, typeof process, typeof module, typeof Buffer, typeof setTimeout, typeof fetch, typeof global]'));
      expect(r.json()).to.deep.equal(Array(7).fill('undefined'));
      const req = await exec(await upload('require("child_process").execSync("id").toString()'));
      expect(req.status).to.equal(500);
      expect(req.text).to.include('ReferenceError: require is not defined');
      const proc = await exec(await upload('process.exit(1)'));
      expect(proc.status).to.equal(500);
      expect(proc.text).to.include('ReferenceError: process is not defined');
    });

    it('exposes nothing but the bindings on globalThis, even through constructors', async () => {
      const probe = [
        'const own = Object.getOwnPropertyNames(globalThis);',
        'const escaped = (function () { try { return this.constructor.constructor("return typeof process")(); } catch (e) { return "threw"; } })();',
        '[own.filter((n) => !/^[A-Z]/.test(n)), escaped, typeof cacheManager.getCache("scripted").get.constructor("return this")().process]',
      ].join('\n');
      const [own, escaped, viaFunction] = (await exec(await upload(probe))).json<[string[], string, string]>();
      const standard = ['globalThis', 'eval', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'decodeURI', 'decodeURIComponent', 'encodeURI',
        'encodeURIComponent', 'escape', 'unescape', 'undefined', 'console', 'cacheManager', 'NaN', 'Infinity'];
      expect(own.filter((name) => !standard.includes(name))).to.deep.equal([]);
      expect(escaped).to.equal('undefined');
      expect(viaFunction).to.equal('undefined');
    });

    it('cannot read a file', async () => {
      const r = await exec(await upload('const fs = globalThis.require ? require("fs") : undefined; fs.readFileSync("/etc/passwd", "utf8")'));
      expect(r.status).to.equal(500);
      expect(r.text).to.include('TypeError');
      const dynamic = await exec(await upload('import("fs").then((fs) => fs.readFileSync("/etc/passwd", "utf8"))'));
      expect(dynamic.status).to.equal(500);
      expect(dynamic.text).to.equal('ISPN027503: Script execution error: Error: Not supported');
    });
  });

  describe('limits (task-* settings)', () => {
    const MiB = 1024 * 1024;
    const limited = useServer({ taskTimeout: 30_000, taskMaxHostCalls: 2_000, taskMaxWrite: MiB, taskMemoryLimit: 32 * MiB });
    const ops = limited.as('admin');
    let k = 0;
    const run = async (script: string, query = '&cache=limited') => {
      const name = `limit-${++k}`;
      expect((await ops.put(task(name), script)).status).to.equal(200);
      return ops.post(task(name, 'exec', query));
    };
    const size = async () => Number((await ops.get('/rest/v2/caches/limited?action=size')).text);
    const error = (detail: string) => `ISPN027503: Script execution error: ${detail}`;

    before(async () => {
      await ops.createCache('limited');
    });

    describe('the wall-clock deadline', () => {
      before(() => configureSandbox(limited, { timeoutMs: 1_000, maxHostCalls: 1e9, maxWriteBytes: 1e12 }));
      after(() => configureSandbox(limited, { timeoutMs: 30_000, maxHostCalls: 2_000, maxWriteBytes: MiB }));

      it('stops a loop of host calls (time in cache.get counts), even one that catches the refusals', async () => {
        for (const script of ['for (;;) cache.get("x")', 'for (;;) { try { cache.get("x") } catch (e) {} }', 'for (;;) { try { cache.get("x") } catch (e) { for (;;) {} } }']) {
          const r = await run(script);
          expect(r.status, script).to.equal(500);
          expect(r.text, script).to.equal(error('script exceeded its time limit of 1000 ms'));
        }
      });

      it('lets no write through once the answer is sent', async () => {
        const r = await run('let i = 0; for (;;) { try { cache.put("d" + i++, "v") } catch (e) {} }');
        expect(r.text).to.equal(error('script exceeded its time limit of 1000 ms'));
        const after = await size();
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await size()).to.equal(after);
      });
    });

    it('stops a put loop at task-max-write, keeping what it wrote before, with RSS bounded', async () => {
      const before = process.memoryUsage().rss;
      const r = await run('const v = "x".repeat(64 * 1024); let i = 0; for (;;) { try { cache.put("w" + i++, v) } catch (e) {} }');
      expect(r.status).to.equal(500);
      expect(r.text).to.equal(error('script exceeded its write limit of 1048576 bytes'));
      const stored = await size();
      expect(stored).to.be.above(0).and.at.most(16); // 16 × (64 KiB + key) > 1 MiB: the 16th is refused
      expect(process.memoryUsage().rss - before).to.be.below(256 * MiB);
    });

    it('stops a call loop at task-max-host-calls', async () => {
      const r = await run('for (;;) { try { cache.containsKey("x") } catch (e) {} }');
      expect(r.status).to.equal(500);
      expect(r.text).to.equal(error('script exceeded its limit of 2000 host calls'));
    });

    it('refuses an argument longer than the write limit inside the sandbox (a rope costs the script nothing)', async () => {
      const r = await run('let v = "x".repeat(1 << 20); for (let i = 0; i < 8; i++) v = v + v; cache.put("rope", v)');
      expect(r.status).to.equal(500);
      expect(r.text).to.equal(error('RangeError: value is longer than 1048576 characters'));
      expect((await ops.get('/rest/v2/caches/limited/rope')).status).to.equal(404);
    });

    it('keeps the health probe answering while scripts loop, write and build huge strings', async () => {
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      let slowest = 0;
      let running = true;
      const probe = (async () => {
        while (running) {
          const started = Date.now();
          expect((await limited.anonymous().get('/rest/v2/container/health/status')).status).to.equal(200);
          slowest = Math.max(slowest, Date.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      configureSandbox(limited, { timeoutMs: 1_500 });
      try {
        const answers = await Promise.all([
          'for (;;) cache.get("x")',
          'for (;;) {}',
          'const v = "y".repeat(60000); let i = 0; for (;;) cache.put("h" + i++, v)',
          'let v = "x".repeat(1 << 20); for (let i = 0; i < 8; i++) v = v + v; cache.put("rope", v)',
        ].map((script) => run(script)));
        expect(answers.map((a) => a.status)).to.deep.equal([500, 500, 500, 500]);
      } finally {
        configureSandbox(limited, { timeoutMs: 30_000 });
        running = false;
        await probe;
        delay.disable();
      }
      expect(slowest, 'slowest health probe (ms)').to.be.below(1_000);
      expect(delay.max / 1e6, 'longest event-loop stall (ms)').to.be.below(1_000);
    });

    it('stops running and waiting scripts when the server stops, with a clear answer', async () => {
      const own = await startTestServer({ taskTimeout: 60_000, taskConcurrency: 1 });
      await own.as('admin').createCache('c');
      expect((await own.as('admin').put(task('forever'), 'for (;;) { try { cache.get("x") } catch (e) {} }')).status).to.equal(200);
      const running = own.as('admin').post(task('forever', 'exec', '&cache=c'));
      const waiting = own.as('admin').post(task('forever', 'exec', '&cache=c'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await own.close();
      for (const r of await Promise.all([running, waiting])) {
        expect(r.status).to.equal(500);
        expect(r.text).to.equal(error('script stopped because the server is stopping'));
      }
    });
  });

  describe('persistence', () => {
    it('keeps tasks across a restart on the same data dir', async () => {
      await withServer({}, async (server) => {
        await server.as('admin').put(task('kept'), HELLO);
        await server.restart();
        expect((await server.as('admin').get(task('kept', 'script'))).text).to.equal(HELLO);
        expect((await server.as('application').post(task('kept', 'exec', '&param.greetee=later'))).json()).to.equal('Hello later');
        expect((await server.as('admin').get('/rest/v2/tasks?type=user')).json<TaskInfo[]>().map((t) => t.name)).to.deep.equal(['kept']);
      });
    });
  });
});
