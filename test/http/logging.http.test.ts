import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, useServer, withServer } from '../support/server';
import { h2Transport } from '../support/transports';

/** A STDOUT appender the test can read. */
function sink() {
  const lines: string[] = [];
  return { lines, write: (line: string) => { lines.push(line); } };
}

const accessLines = (lines: string[]) => lines.filter((l) => l.includes('"msg":"request"'));
const ACCESS_LOG = 'org.infinispan.REST_ACCESS_LOG';

describe('logging /rest/v2/logging', () => {
  const out = sink();
  const server = useServer({ stdout: out, logLevel: 'warn' });
  const admin = server.as('admin');

  it('lists the appenders and the loggers, root included', async () => {
    expect((await admin.get('/rest/v2/logging/appenders')).json()).to.deep.equal({ STDOUT: { name: 'STDOUT' }, 'JSON-FILE': { name: 'JSON-FILE' } });
    const loggers = (await admin.get('/rest/v2/logging/loggers')).json<Array<{ name: string; level: string; appenders: string[] }>>();
    expect(loggers.find((l) => l.name === '')).to.deep.equal({ name: '', level: 'WARN', appenders: ['STDOUT', 'JSON-FILE'] });
    expect(loggers.map((l) => l.name)).to.include.members(['grid.http', 'grid.cache', 'grid.store']);
    // declared at INFO as in the original's log4j2.xml: its lines are TRACE, so it is off
    expect(loggers.find((l) => l.name === ACCESS_LOG)).to.deep.equal({ name: ACCESS_LOG, level: 'INFO', appenders: ['STDOUT', 'JSON-FILE'] });
  });

  it('changes a logger level at run time, immediately, and reverts it with DELETE', async () => {
    await admin.get('/rest/v2/caches');
    expect(accessLines(out.lines)).to.have.length(0);
    // INFO, as in the original, is not enough: access lines are TRACE
    expect((await admin.put(`/rest/v2/logging/loggers/${ACCESS_LOG}?level=INFO`)).status).to.equal(204);
    await admin.get('/rest/v2/caches');
    expect(accessLines(out.lines)).to.have.length(0);
    expect((await admin.put(`/rest/v2/logging/loggers/${ACCESS_LOG}?level=TRACE`)).status).to.equal(204);
    await admin.get('/rest/v2/caches');
    expect(accessLines(out.lines).length).to.be.greaterThan(0);
    const line = accessLines(out.lines).map((l) => JSON.parse(l)).find((l) => l.method === 'GET');
    expect(line).to.include({ logger: ACCESS_LOG, user: 'admin', method: 'GET', path: '/rest/v2/caches', protocol: 'HTTP/1.1', status: 200, address: '127.0.0.1' });
    expect(line.ms).to.be.a('number');
    expect(JSON.stringify(line)).to.not.contain('admin-pw');
    expect((await admin.get('/rest/v2/logging/loggers')).json<Array<{ name: string; level: string }>>().find((l) => l.name === ACCESS_LOG)?.level).to.equal('TRACE');
    expect((await admin.delete(`/rest/v2/logging/loggers/${ACCESS_LOG}`)).status).to.equal(204);
    const before = accessLines(out.lines).length;
    await admin.get('/rest/v2/caches');
    expect(accessLines(out.lines).length).to.equal(before);
  });

  it('routes a logger to the chosen appenders only', async () => {
    expect((await admin.put(`/rest/v2/logging/loggers/${ACCESS_LOG}?level=TRACE&appender=JSON-FILE`)).status).to.equal(204);
    const before = accessLines(out.lines).length;
    await admin.get('/rest/v2/caches?marker=file-only');
    expect(accessLines(out.lines).length).to.equal(before);
    await admin.delete(`/rest/v2/logging/loggers/${ACCESS_LOG}`);
    const file = join(server.dataDir, 'log', 'server.log.json');
    // the access line is written once the answer is sent: it may follow the answer by a moment
    for (let i = 0; i < 100 && !(existsSync(file) && readFileSync(file, 'utf8').includes('"path":"/rest/v2/caches"')); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(readFileSync(file, 'utf8')).to.contain('"path":"/rest/v2/caches"');
  });

  it('answers the original errors: 400 ISPN012044, ISPN080036, ISPN080035; 404 with the name', async () => {
    const none = await admin.put('/rest/v2/logging/loggers/grid.x');
    expect([none.status, none.text]).to.deep.equal([400, "ISPN012044: Missing at least one argument in '[level, appender]'"]);
    const level = await admin.put('/rest/v2/logging/loggers/grid.x?level=LOUD');
    expect([level.status, level.text]).to.deep.equal([400, 'ISPN080036: Invalid level `LOUD`']);
    const appender = await admin.put('/rest/v2/logging/loggers/grid.x?appender=SYSLOG');
    expect([appender.status, appender.text]).to.deep.equal([400, 'ISPN080035: Unknown appender `SYSLOG`']);
    const missing = await admin.delete('/rest/v2/logging/loggers/never.set');
    expect([missing.status, missing.text]).to.deep.equal([404, 'never.set']);
  });

  it('is ADMIN only', async () => {
    expect((await server.as('deployer').get('/rest/v2/logging/loggers')).status).to.equal(403);
    expect((await server.as('monitor').put('/rest/v2/logging/loggers/grid?level=DEBUG')).status).to.equal(403);
  });
});

describe('the REST access log org.infinispan.REST_ACCESS_LOG', () => {
  it('is off by default, even with the root logger at TRACE', async () => {
    const out = sink();
    await withServer({ stdout: out, logLevel: 'trace' }, async (server) => {
      await server.as('admin').get('/rest/v2/caches');
      await server.as('admin').get('/rest/v2/caches/none/k');
      expect(accessLines(out.lines)).to.have.length(0);
      expect(out.lines.length).to.be.greaterThan(0); // the root logger does write at TRACE
    });
  });

  it('is on from the start when the configuration file sets it to TRACE, errors and HTTP/2 included', async () => {
    const out = sink();
    const server = await startTestServer({ stdout: out, logLevel: 'warn', loggers: [{ name: ACCESS_LOG, level: 'TRACE' }] });
    const h2 = h2Transport(server.url);
    try {
      await server.as('admin').get('/rest/v2/caches/none/k');
      await h2.request('GET', '/rest/v2/container/health/status');
      const lines = accessLines(out.lines).map((l) => JSON.parse(l));
      expect(lines.find((l) => l.path === '/rest/v2/caches/none/k')).to.include({ logger: ACCESS_LOG, method: 'GET', status: 404, user: 'admin' });
      expect(lines.find((l) => l.path === '/rest/v2/container/health/status')).to.include({ protocol: 'HTTP/2.0', status: 200, user: 'anonymous' });
    } finally {
      h2.close();
      await server.close();
    }
  });
});

describe('logger settings across a restart', () => {
  it('are persisted', async () => {
    await withServer({ logLevel: 'warn' }, async (server) => {
      await server.as('admin').put('/rest/v2/logging/loggers/grid.cache?level=DEBUG&appender=STDOUT');
      await server.as('admin').put('/rest/v2/logging/loggers?level=ERROR');
      await server.restart({ stdout: sink() });
      const loggers = (await server.as('admin').get('/rest/v2/logging/loggers')).json<Array<{ name: string; level: string; appenders: string[] }>>();
      expect(loggers.find((l) => l.name === 'grid.cache')).to.deep.equal({ name: 'grid.cache', level: 'DEBUG', appenders: ['STDOUT'] });
      expect(loggers.find((l) => l.name === '')?.level).to.equal('ERROR');
    });
  });
});
