import { expect } from 'chai';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { H2_LIMITS } from '../../src/http/transport/h2-sessions';
import { CANCEL, ENHANCE_YOUR_CALM, RawH2Client } from '../support/h2-raw';
import { useServer } from '../support/server';
import { eventually } from '../support/poll';
import { basic, h2Transport, http1Transport, type Transport } from '../support/transports';

/**
 * One abusive HTTP/2 client cannot starve the others (CVE-2023-44487 and its relatives): while it
 * misbehaves, a well-behaved HTTP/2 client and an HTTP/1.1 client keep being answered, and the
 * event loop never stalls (a generous 1 s bound, not a timing assertion).
 */
describe('HTTP/2 limits against abusive clients', () => {
  const server = useServer();
  let port: number;
  const AUTH = basic('admin');

  before(async () => {
    port = server.running.port;
    await server.as('admin').createCache('limits');
    await server.as('admin').put('/rest/v2/caches/limits/k', 'v');
  });

  /** Runs `attack` while two polite clients keep asking; all their requests must be answered. */
  async function whileOthersWork(attack: () => Promise<void>): Promise<void> {
    const polite: Transport[] = [h2Transport(server.url), http1Transport(server.url)];
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    let stop = false;
    let answered = 0;
    const work = polite.map(async (t) => {
      while (!stop) {
        const r = await t.request('GET', '/rest/v2/caches/limits/k', { headers: AUTH });
        expect(r.status).to.equal(200);
        answered++;
      }
    });
    try {
      await attack();
      const before = answered;
      await eventually(() => answered >= before + 10, 10_000, 'polite clients answered after the attack');
    } finally {
      stop = true;
      await Promise.all(work);
      loop.disable();
      polite.forEach((t) => t.close());
    }
    expect(loop.max / 1e6, 'longest event-loop stall (ms)').to.be.below(1000);
  }

  it('CVE-2023-44487: answers rapid resets (HEADERS then RST_STREAM, over and over) with GOAWAY ENHANCE_YOUR_CALM', async () => {
    await whileOthersWork(async () => {
      const attacker = await RawH2Client.open(port);
      let id = 1;
      for (let batch = 0; batch < 50 && !attacker.closed && attacker.goawayCode() === undefined; batch++) {
        const frames: Buffer[] = [];
        for (let i = 0; i < 100; i++, id += 2) frames.push(attacker.request(id, 'GET', '/rest/v2/caches/limits/k', AUTH), attacker.reset(id, CANCEL));
        await attacker.send(Buffer.concat(frames));
        await new Promise((r) => setImmediate(r));
      }
      await eventually(() => attacker.goawayCode() !== undefined || attacker.closed, 10_000, 'the attacker dropped');
      expect(attacker.goawayCode()).to.equal(ENHANCE_YOUR_CALM);
      await eventually(() => attacker.closed, 10_000, 'the connection closed');
    });
  });

  it(`drops a client that opens more than ${H2_LIMITS.maxConcurrentStreams} streams at once (GOAWAY), keeps serving the others`, async () => {
    await whileOthersWork(async () => {
      const attacker = await RawH2Client.open(port);
      await eventually(() => attacker.frames.some((f) => f.type === 4 && f.flags === 1), 5000, 'our SETTINGS acknowledged');
      const frames: Buffer[] = [];
      // PUTs whose bodies never come: each keeps its stream open
      for (let i = 0; i < 150; i++) frames.push(attacker.request(1 + 2 * i, 'PUT', `/rest/v2/caches/limits/open-${i}`, AUTH, false));
      await attacker.send(Buffer.concat(frames));
      await eventually(() => attacker.goawayCode() !== undefined && attacker.closed, 10_000, 'the attacker dropped');
      expect(attacker.goawayCode()).to.not.equal(0);
      expect(attacker.answered().size).to.equal(0);
    });
    expect((await server.as('admin').get('/rest/v2/caches/limits/open-0')).status).to.equal(404);
  });

  it('closes a connection that floods SETTINGS frames without reading the acknowledgements', async () => {
    await whileOthersWork(async () => {
      const attacker = await RawH2Client.open(port);
      attacker.stopReading();
      const flood = Buffer.concat(Array.from({ length: 1000 }, () => attacker.settings()));
      for (let i = 0; i < 100 && (await attacker.send(flood)); i++) await new Promise((r) => setImmediate(r));
      await eventually(() => attacker.closed, 10_000, 'the flooding connection closed');
      attacker.close();
    });
  });

  it('resets an oversized header list even before the client acknowledged the limit (curl\'s first request); nothing is written', async () => {
    const client = await RawH2Client.open(port, { ackSettings: false });
    try {
      const padding = { 'x-padding': 'p'.repeat(H2_LIMITS.maxHeaderListSize) };
      await client.send(client.request(1, 'PUT', '/rest/v2/caches/limits/first', { ...AUTH, 'content-type': 'text/plain', ...padding }));
      await eventually(() => client.resets(ENHANCE_YOUR_CALM) === 1, 5000, 'the reset');
      await client.send(client.request(3, 'GET', '/rest/v2/caches/limits/k', AUTH));
      await eventually(() => client.answered().has(3), 5000, 'the next request answered');
      expect(client.answered().has(1)).to.equal(false);
      expect((await server.as('admin').get('/rest/v2/caches/limits/first')).status).to.equal(404);
    } finally {
      client.close();
    }
  });

  it('resets a stream whose headers pass the header list limit with ENHANCE_YOUR_CALM; the connection goes on', async () => {
    const client = await RawH2Client.open(port);
    try {
      // limits apply once the client has acknowledged them: one answered request shows it has
      await client.send(client.request(1, 'GET', '/rest/v2/caches/limits/k', AUTH));
      await eventually(() => client.answered().has(1), 5000, 'the first request answered');
      await client.send(client.request(3, 'GET', '/rest/v2/caches/limits/k', { ...AUTH, 'x-padding': 'p'.repeat(H2_LIMITS.maxHeaderListSize) }));
      await eventually(() => client.resets(ENHANCE_YOUR_CALM) === 1, 5000, 'the reset');
      await client.send(client.request(5, 'GET', '/rest/v2/caches/limits/k', AUTH));
      await eventually(() => client.answered().has(5), 5000, 'the next request answered');
      expect(client.answered().has(3)).to.equal(false);
      expect(client.closed).to.equal(false);
    } finally {
      client.close();
    }
  });
});
