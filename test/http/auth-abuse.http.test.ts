import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { ManualClock } from '../../src/util/clock';
import { Client } from '../support/client';
import { basic, challengeFor, digestAuthorization, fieldOf, getFrom } from '../support/digest';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir, useServer, withServer, type ServerUnderTest } from '../support/server';
import { eventually } from '../support/poll';
import { needTool } from '../support/tools';

const URI = '/rest/v2/caches';

interface Timed { status: number; text: string; doneAt: number; ms: number }

async function timed(client: Client): Promise<Timed> {
  const started = performance.now();
  const r = await client.get(URI);
  const doneAt = performance.now();
  return { status: r.status, text: r.text, doneAt, ms: doneAt - started };
}

/** A fresh MD5 Digest challenge from the server. */
async function challenge(server: ServerUnderTest, uri = URI): Promise<string> {
  return challengeFor((await server.anonymous().get(uri)).headers.get('www-authenticate'));
}

describe('authentication under abuse', () => {
  describe('password verifications are bounded and fair', () => {
    const server = useServer();

    it("64 parallel wrong passwords do not hold up another user's first login", async () => {
      const attackers = Array.from({ length: 64 }, (_, i) => timed(new Client(server.url, { user: 'admin', password: `guess-${i}` })));
      const real = timed(new Client(server.url, { user: 'observer', password: 'observer-pw' }));
      const [user, ...attacks] = await Promise.all([real, ...attackers]);
      expect(user.status).to.equal(200);
      expect(attacks.every((a) => a.status === 401 || a.status === 429)).to.equal(true);
      // stall-tolerant: the real login finishes before the attack does, or well within 2 s
      const lastAttack = Math.max(...attacks.map((a) => a.doneAt));
      expect(user.doneAt <= lastAttack || user.ms < 2000, `login took ${Math.round(user.ms)} ms`).to.equal(true);
    });

    it('refuses verifications beyond the queue at once with 429 and Retry-After', async () => {
      const attacks = await Promise.all(Array.from({ length: 64 }, (_, i) => new Client(server.url, { user: 'deployer', password: `flood-${i}` }).get(URI)));
      const refused = attacks.filter((a) => a.status === 429);
      expect(refused.length).to.be.greaterThan(0);
      expect(refused[0].headers.get('retry-after')).to.match(/^\d+$/);
      expect(refused.map((r) => r.text)).to.satisfy((texts: string[]) => texts.every((t) => t.startsWith('Too many')));
    });
  });

  describe('a wrong-password flood from many addresses', () => {
    const server = useServer();
    before(async () => {
      await Promise.all(Array.from({ length: 10 }, (_, i) => server.running.services.users.upsert(`fresh${i}`, `fresh${i}-pw`, ['observer'])));
    });

    /**
     * 17 addresses (127.0.0.2–18), each with 8 logins of unknown users always in flight — the
     * queue of waiting verifications stays full — while `during` runs; returns how many attacks
     * were refused with 429 (the queue was full) and answered 401.
     */
    async function whileFlooded(during: () => Promise<void>): Promise<{ refused: number; failed: number }> {
      let stop = false;
      let refused = 0;
      let failed = 0;
      let n = 0;
      const loops = Array.from({ length: 17 * 8 }, async (_, i) => {
        const address = `127.0.0.${2 + (i % 17)}`;
        while (!stop) {
          const r = await getFrom(address, server.url + URI, { Authorization: basic(`nobody-${i}-${n++}`, 'guess') });
          if (r.status === 429) refused++;
          else failed++;
          if (r.status === 429) await new Promise((resolve) => setTimeout(resolve, 2));
        }
      });
      try {
        await eventually(() => refused > 0, 10_000, 'the queue full');
        await during();
      } finally {
        stop = true;
        await Promise.all(loops);
      }
      return { refused, failed };
    }

    it('does not stop a fresh login of another user from another address, nor from an address where somebody logged in before', async function () {
      this.timeout(90_000);
      expect((await getFrom('127.0.0.31', server.url + URI, { Authorization: basic('fresh9', 'fresh9-pw') })).status, 'a known address').to.equal(200);
      const statuses: Record<string, number[]> = { new: [], known: [] };
      const flood = await whileFlooded(async () => {
        for (let i = 0; i < 4; i++) {
          statuses.new.push((await getFrom('127.0.0.30', server.url + URI, { Authorization: basic(`fresh${i}`, `fresh${i}-pw`) })).status);
          statuses.known.push((await getFrom('127.0.0.31', server.url + URI, { Authorization: basic(`fresh${i + 4}`, `fresh${i + 4}-pw`) })).status);
        }
      });
      expect(flood.refused, 'the flood filled the queue').to.be.greaterThan(0);
      // before: 429 `Too many logins are being verified at once` for every one of them
      expect(statuses).to.deep.equal({ new: [200, 200, 200, 200], known: [200, 200, 200, 200] });
    });
  });

  describe('unknown users', () => {
    it('are answered exactly as a wrong password for a known user is (their cost: passwords.test.ts)', async () => {
      await withServer({}, async (server) => {
        await server.running.services.users.upsert('known', 'right', ['observer']);
        const known = await new Client(server.url, { user: 'known', password: 'wrong' }).get('/rest/v2/caches');
        const unknown = await new Client(server.url, { user: 'ghost', password: 'wrong' }).get('/rest/v2/caches');
        // each Digest challenge carries a fresh nonce; everything else must be the same
        const answer = (r: typeof known) => ({ status: r.status, body: r.text, challenge: r.headers.get('www-authenticate')?.replace(/nonce="[^"]*"/g, 'nonce') });
        expect(answer(unknown)).to.deep.equal(answer(known));
        expect(known.status).to.equal(401);
      });
    });
  });

  describe('backing off after failed logins', () => {
    const clock = new ManualClock();
    const server = useServer({ clock });

    const from = (address: string, user: string, password: string) => getFrom(address, server.url + URI, { Authorization: basic(user, password) });

    it('refuses one address guessing one user with 429 after 5 failures, the right password included', async () => {
      for (let i = 0; i < 5; i++) expect((await from('127.0.0.1', 'application', `wrong-${i}`)).status).to.equal(401);
      const refused = await from('127.0.0.1', 'application', 'wrong-5');
      expect(refused.status).to.equal(429);
      expect(refused.headers['retry-after']).to.equal('1');
      expect(refused.text).to.equal('Too many failed logins from this address or for this user; try again in 1 s');
      expect((await from('127.0.0.1', 'application', 'application-pw')).status).to.equal(429);
    });

    it('does not refuse other users from that address, nor that user from other addresses', async () => {
      expect((await from('127.0.0.1', 'observer', 'observer-pw')).status).to.equal(200);
      expect((await from('127.0.0.2', 'application', 'application-pw')).status).to.equal(200);
    });

    it('verifies again once the delay has passed; a success clears the failures', async () => {
      clock.advance(1001);
      expect((await from('127.0.0.1', 'application', 'wrong-6')).status).to.equal(401);
      expect((await from('127.0.0.1', 'application', 'wrong-7')).status, 'the delay doubles').to.equal(429);
      clock.advance(2001);
      expect((await from('127.0.0.1', 'application', 'application-pw')).status).to.equal(200);
      expect((await from('127.0.0.1', 'application', 'wrong-8')).status, 'counting starts again').to.equal(401);
    });

    it('counts a repeated identical wrong header once (it guesses nothing new)', async () => {
      for (let i = 0; i < 10; i++) expect((await from('127.0.0.3', 'monitor', 'same-wrong')).status).to.equal(401);
      expect((await from('127.0.0.3', 'monitor', 'monitor-pw')).status).to.equal(200);
    });

    it('refuses one address trying many users after 20 failures', async () => {
      await server.running.services.users.upsert('sprayed', 'sprayed-pw', ['observer']);
      for (let i = 0; i < 20; i++) expect((await from('127.0.0.4', `sprayed${i}`, 'password1')).status).to.equal(401);
      expect((await from('127.0.0.4', 'sprayed', 'sprayed-pw')).status).to.equal(429);
      expect((await from('127.0.0.6', 'sprayed', 'sprayed-pw')).status, 'elsewhere it works').to.equal(200);
    });

    it('refuses many addresses guessing one user after 20 failures, except where that user logged in before', async () => {
      await server.running.services.users.upsert('target', 'target-pw', ['observer']);
      // Digest, which is never remembered, so that every login below is really verified
      const digestFrom = async (address: string) => {
        const c = challengeFor(String((await getFrom(address, server.url + URI)).headers['www-authenticate']));
        const auth = digestAuthorization({ challenge: c, user: 'target', password: 'target-pw', method: 'GET', uri: URI });
        return (await getFrom(address, server.url + URI, { Authorization: auth })).status;
      };
      expect(await digestFrom('127.0.0.5')).to.equal(200);
      for (let i = 0; i < 20; i++) expect((await from(`127.0.1.${i + 1}`, 'target', `guess-${i}`)).status).to.equal(401);
      expect(await digestFrom('127.0.2.1'), 'a new address waits').to.equal(429);
      expect((await from('127.0.2.2', 'target', 'target-pw')).status, 'a new address waits').to.equal(429);
      expect(await digestFrom('127.0.0.5'), 'where the user logged in before is exempt').to.equal(200);
    });
  });

  describe('Digest nonces and nonce counts', () => {
    const clock = new ManualClock();
    const server = useServer({ clock });
    const get = (authorization: string) => server.anonymous().get(URI, { Authorization: authorization });
    const auth = (c: string, nc: number) => digestAuthorization({ challenge: c, user: 'admin', password: 'admin-pw', method: 'GET', uri: URI, nc });

    it('refuses a replayed header (same nonce, same nc) with 401 stale=true', async () => {
      const c = await challenge(server);
      expect((await get(auth(c, 1))).status).to.equal(200);
      const replay = await get(auth(c, 1));
      expect(replay.status).to.equal(401);
      expect(replay.headers.get('www-authenticate')).to.contain('stale=true');
    });

    it('accepts increasing counts on one nonce, and counts slightly out of order once each', async () => {
      const c = await challenge(server);
      expect((await get(auth(c, 1))).status).to.equal(200);
      expect((await get(auth(c, 2))).status).to.equal(200);
      expect((await get(auth(c, 5))).status).to.equal(200);
      expect((await get(auth(c, 4))).status).to.equal(200);
      expect((await get(auth(c, 3))).status).to.equal(200);
      for (const nc of [3, 4, 5, 2]) expect((await get(auth(c, nc))).status, `nc ${nc} again`).to.equal(401);
      expect((await get(auth(c, 6))).status).to.equal(200);
    });

    it('does not hold a header that failed for one method against the same header sent with the right one', async () => {
      const uri = '/rest/v2/caches/no-such-cache/k';
      const c = await challenge(server);
      const forGet = digestAuthorization({ challenge: c, user: 'admin', password: 'admin-pw', method: 'GET', uri });
      expect((await server.anonymous().request('DELETE', uri, { headers: { Authorization: forGet } })).status).to.equal(401);
      expect((await server.anonymous().get(uri, { Authorization: forGet })).status, 'authenticated, then no such cache').to.equal(404);
    });

    it('does not let a wrong response use up a count', async () => {
      const c = await challenge(server);
      const wrong = digestAuthorization({ challenge: c, user: 'admin', password: 'nope', method: 'GET', uri: URI, nc: 1 });
      const refused = await get(wrong);
      expect(refused.status).to.equal(401);
      expect(refused.headers.get('www-authenticate')).to.not.contain('stale=true');
      expect((await get(auth(c, 1))).status).to.equal(200);
    });

    it('answers stale=true for a nonce first used after five minutes, or idle for more than fifteen', async () => {
      const late = await challenge(server);
      clock.advance(5 * 60_000 + 1);
      const r = await get(auth(late, 1));
      expect(r.status).to.equal(401);
      expect(r.headers.get('www-authenticate')).to.contain('stale=true');
      const kept = await challenge(server);
      expect((await get(auth(kept, 1))).status).to.equal(200);
      clock.advance(10 * 60_000);
      expect((await get(auth(kept, 2))).status, 'in use: still valid').to.equal(200);
      clock.advance(15 * 60_000 + 1);
      expect((await get(auth(kept, 3))).status).to.equal(401);
    });

    it('answers stale=true for a nonce this server never issued when the response is right (a restart)', async () => {
      const forged = 'Digest realm="default", nonce="abc.1.notours", algorithm=MD5, qop="auth"';
      const r = await get(auth(forged, 1));
      expect(r.status).to.equal(401);
      expect(r.headers.get('www-authenticate')).to.contain('stale=true');
    });

    it('refuses Digest without qop (RFC 2069) with a plain 401', async () => {
      const c = await challenge(server);
      const r = await get(digestAuthorization({ challenge: c, user: 'admin', password: 'admin-pw', method: 'GET', uri: URI, noQop: true }));
      expect(r.status).to.equal(401);
      expect(r.headers.get('www-authenticate')).to.not.contain('stale=true');
    });

    it('answers 400 for qop=auth without a well-formed nc or cnonce', async () => {
      const c = await challenge(server);
      const nonce = fieldOf(c, 'nonce');
      const r = await get(`Digest username="admin", realm="default", nonce="${nonce}", uri="${URI}", response="00", qop=auth, nc=1`);
      expect(r.status).to.equal(400);
    });
  });

  describe('digest-without-qop: true', () => {
    it('accepts Digest without qop, each nonce once', async () => {
      await withServer({ digestWithoutQop: true }, async (server) => {
        const c = await challenge(server);
        const header = digestAuthorization({ challenge: c, user: 'admin', password: 'admin-pw', method: 'GET', uri: URI, noQop: true });
        expect((await server.anonymous().get(URI, { Authorization: header })).status).to.equal(200);
        const again = await server.anonymous().get(URI, { Authorization: header });
        expect(again.status).to.equal(401);
        expect(again.headers.get('www-authenticate')).to.contain('stale=true');
      });
    });
  });

  describe('curl --digest against bin/grid', () => {
    it('works for several requests on one connection and across connections', async function () {
      needTool(this, 'curl', 'curl --digest');
      const dataDir = tempDir();
      const proc = await spawnServer(['--data', dataDir], { APP_USER: 'curly', APP_PASS: 'curl-pw' });
      const curl = (args: string[]) => new Promise<string>((resolve, reject) => {
        const urls = args.flatMap((u) => ['-o', '/dev/null', u]);
        execFile('curl', ['-s', '-w', '%{http_code}\\n', '--digest', '-u', 'curly:curl-pw', ...urls], (err, out) => {
          if (err) reject(err);
          else resolve(out);
        });
      });
      try {
        const one = await curl([proc.url + URI, proc.url + '/rest/v2/container', proc.url + URI, proc.url + URI]);
        expect(one.trim().split('\n')).to.deep.equal(['200', '200', '200', '200']);
        const separate = await Promise.all([1, 2, 3, 4].map(() => curl([proc.url + URI])));
        expect(separate.map((s) => s.trim())).to.deep.equal(['200', '200', '200', '200']);
      } finally {
        proc.child.kill('SIGTERM');
        await waitForExit(proc.child);
      }
    });
  });
});
