import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { Client } from '../support/client';
import { type ServerProcess, spawnServer, waitForExit } from '../support/process';
import { tempDir } from '../support/server';

/**
 * Crash safety, proven the hard way: 8 clients make acknowledged writes of every persistent kind
 * (entries of a persistent cache, entries of a memory cache, counters, cache definitions, schemas)
 * against a real `bin/grid start`, which is SIGKILLed at a random moment, restarted on the same data
 * dir and checked: every acknowledged persistent write is there, nothing is torn, memory caches are
 * empty. 10 cycles in `npm test`, 200 with GRID_SOAK=1 (`npm run soak`). GRID_CRASH_SEED replays a run.
 */
const CYCLES = process.env.GRID_SOAK === '1' ? 200 : 10;
const CLIENTS = 8;
const KEYS_PER_CLIENT = 40;
const DEFINITIONS_PER_CLIENT = 3;
const SCHEMAS_PER_CLIENT = 3;
const P = '/rest/v2/caches/crash-p';
const M = '/rest/v2/caches/crash-m';
const JSON_TYPE = { 'Content-Type': 'application/json' };
const TEXT = { 'Content-Type': 'text/plain; charset=UTF-8' };

/** A small seeded generator (mulberry32), so a failing run can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * What may be on disk: for each thing, the values it may hold (`null` = absent). One value when
 * every write to it was acknowledged; two when the write in flight at the kill may or may not have
 * been committed. After each restart the model takes what the server holds.
 */
class Model {
  readonly entries = new Map<string, Array<string | null>>();
  /** Every value ever written per key: a value outside it is torn, not just stale. */
  readonly written = new Map<string, Set<string>>();
  readonly counters = new Map<string, bigint[]>();
  readonly definitions = new Map<string, boolean[]>();
  readonly schemas = new Map<string, Array<string | null>>();
}

interface Tally {
  acknowledged: number;
  persistent: number;
  unexpected: string[];
}

/** One client: sequential operations until the server goes away; the operation in flight then is uncertain. */
async function client(w: number, http: Client, model: Model, rnd: () => number, tally: Tally): Promise<void> {
  const ack = (persistent: boolean) => {
    tally.acknowledged++;
    if (persistent) tally.persistent++;
  };
  const expectStatus = (r: { status: number; text: string }, ok: number[], what: string) => {
    if (!ok.includes(r.status)) tally.unexpected.push(`${what}: ${r.status} ${r.text}`);
    return ok.includes(r.status);
  };
  for (let seq = 0; ; seq++) {
    const roll = rnd();
    // each branch: the state before, the request, the state after (recorded only once acknowledged)
    if (roll < 0.5) {
      const key = `c${w}-k${Math.floor(rnd() * KEYS_PER_CLIENT)}`;
      const value = `${key}|${seq}|${'x'.repeat(Math.floor(rnd() * 3000))}|end`;
      const before = model.entries.get(key) ?? [null];
      if (!model.written.has(key)) model.written.set(key, new Set());
      model.written.get(key)!.add(value);
      if (!(await attempt(() => http.put(`${P}/${key}`, value, TEXT), (r) => expectStatus(r, [204], `PUT ${key}`),
        () => model.entries.set(key, [value]), () => model.entries.set(key, [...before, value])))) return;
      ack(true);
    } else if (roll < 0.6) {
      const key = `c${w}-k${Math.floor(rnd() * KEYS_PER_CLIENT)}`;
      const before = model.entries.get(key) ?? [null];
      if (!(await attempt(() => http.delete(`${P}/${key}`), (r) => expectStatus(r, [204, 404], `DELETE ${key}`),
        () => model.entries.set(key, [null]), () => model.entries.set(key, [...before, null])))) return;
      ack(true);
    } else if (roll < 0.7) {
      const key = `c${w}-m${Math.floor(rnd() * KEYS_PER_CLIENT)}`;
      if (!(await attempt(() => http.put(`${M}/${key}`, `memory ${seq}`, TEXT), (r) => expectStatus(r, [204], `PUT memory ${key}`),
        () => undefined, () => undefined))) return;
      ack(false);
    } else if (roll < 0.8) {
      const name = `crash-counter-${w}`;
      const [value] = model.counters.get(name)!;
      const answered = (r: { status: number; text: string }) => {
        if (!expectStatus(r, [200], `increment ${name}`)) return false;
        if (r.text !== String(value + 1n)) tally.unexpected.push(`increment ${name}: ${r.text}, expected ${value + 1n}`);
        model.counters.set(name, [BigInt(r.text)]);
        return true;
      };
      if (!(await attempt(() => http.post(`/rest/v2/counters/${name}?action=increment`), answered, () => undefined,
        () => model.counters.set(name, [value, value + 1n])))) return;
      ack(true);
    } else if (roll < 0.9) {
      const name = `crash-def-${w}-${Math.floor(rnd() * DEFINITIONS_PER_CLIENT)}`;
      const exists = model.definitions.get(name)?.[0] ?? false;
      const request = exists
        ? () => http.delete(`/rest/v2/caches/${name}`)
        : () => http.post(`/rest/v2/caches/${name}`, JSON.stringify({ 'local-cache': { statistics: rnd() < 0.5 } }), JSON_TYPE);
      if (!(await attempt(request, (r) => expectStatus(r, [200], `${exists ? 'delete' : 'create'} ${name}`),
        () => model.definitions.set(name, [!exists]), () => model.definitions.set(name, [exists, !exists])))) return;
      ack(true);
    } else {
      const name = `crash-${w}-${Math.floor(rnd() * SCHEMAS_PER_CLIENT)}.proto`;
      const before = model.schemas.get(name) ?? [null];
      const remove = before[0] !== null && rnd() < 0.4;
      const content = `// ${seq}\nmessage M${w}x${seq} { optional string text = 1; }\n`;
      const after = remove ? null : content;
      const request = remove ? () => http.delete(`/rest/v2/schemas/${name}`) : () => http.put(`/rest/v2/schemas/${name}`, content, TEXT);
      if (!(await attempt(request, (r) => expectStatus(r, remove ? [204] : [200], `${remove ? 'delete' : 'put'} ${name}`),
        () => model.schemas.set(name, [after]), () => model.schemas.set(name, [...before, after])))) return;
      ack(true);
    }
  }
}

/**
 * Sends one request. Acknowledged: the model takes the new state. No answer (the server died): the
 * state is uncertain and the client stops. Refused: recorded as unexpected, the model is unchanged.
 */
async function attempt(
  send: () => Promise<{ status: number; text: string }>, ok: (r: { status: number; text: string }) => boolean, acknowledged: () => void, inFlight: () => void,
): Promise<boolean> {
  let r;
  try {
    r = await send();
  } catch {
    inFlight();
    return false;
  }
  if (ok(r)) acknowledged();
  return true;
}

interface Check {
  lost: string[];
  torn: string[];
}

/** Compares the restarted server with the model, then makes the model what the server holds. */
async function verify(http: Client, model: Model, check: Check): Promise<void> {
  const entries = new Map((await http.get(`${P}?action=entries`)).json<Array<{ key: string; value: string }>>().map((e) => [e.key, e.value]));
  for (const key of entries.keys()) if (!model.entries.has(key)) check.torn.push(`unexpected entry ${key}`);
  for (const [key, allowed] of model.entries) {
    const actual = entries.get(key) ?? null;
    if (actual !== null && !model.written.get(key)?.has(actual)) check.torn.push(`entry ${key}: ${actual.slice(0, 60)}`);
    else if (!allowed.includes(actual)) check.lost.push(`entry ${key}: ${String(actual).slice(0, 30)} not one of ${allowed.map((v) => String(v).slice(0, 30))}`);
    model.entries.set(key, [actual]);
  }
  const memory = await http.get(`${M}?action=size`);
  if (memory.status !== 200 || memory.text !== '0') check.lost.push(`memory cache: ${memory.status} ${memory.text} (the cache, empty, is expected)`);
  for (const [name, allowed] of model.counters) {
    const r = await http.get(`/rest/v2/counters/${name}`);
    const actual = r.status === 200 ? BigInt(r.text) : undefined;
    if (actual === undefined || !allowed.includes(actual)) check.lost.push(`counter ${name}: ${r.status} ${r.text}, expected one of ${allowed}`);
    else model.counters.set(name, [actual]);
  }
  const names = new Set((await http.get('/rest/v2/caches')).json<string[]>());
  for (const [name, allowed] of model.definitions) {
    const actual = names.has(name);
    if (!allowed.includes(actual)) check.lost.push(`cache definition ${name}: exists=${actual}, expected one of ${allowed}`);
    model.definitions.set(name, [actual]);
  }
  for (const [name, allowed] of model.schemas) {
    const r = await http.get(`/rest/v2/schemas/${name}`);
    const actual = r.status === 200 ? r.text : null;
    if (r.status !== 200 && r.status !== 404) check.lost.push(`schema ${name}: ${r.status} ${r.text}`);
    else if (!allowed.includes(actual)) check.lost.push(`schema ${name}: ${String(actual).slice(0, 20)} not one of ${allowed.map((v) => String(v).slice(0, 20))}`);
    model.schemas.set(name, [actual]);
  }
}

describe('crash cycles: SIGKILL under 8 writing clients, restart, verify (bin/grid start)', function () {
  this.timeout(CYCLES * 60_000);

  it(`keeps every acknowledged persistent write through ${CYCLES} kills, none torn`, async () => {
    const seed = Number(process.env.GRID_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const rnd = random(seed);
    const dataDir = tempDir('grid-crash-');
    const env = { APP_USER: 'ops', APP_PASS: 'ops-pw' };
    const model = new Model();
    const tally: Tally = { acknowledged: 0, persistent: 0, unexpected: [] };
    const check: Check = { lost: [], torn: [] };
    let proc: ServerProcess | undefined;
    const connect = async (durability: string) => {
      proc = await spawnServer(['--data', dataDir, '--durability', durability], env);
      return new Client(proc.url, { user: 'ops', password: 'ops-pw' });
    };
    try {
      let http = await connect('power');
      await http.createCache('crash-p', { 'local-cache': { persistence: { 'file-store': {} } } });
      await http.createCache('crash-m');
      for (let w = 0; w < CLIENTS; w++) {
        const r = await http.post(`/rest/v2/counters/crash-counter-${w}`, JSON.stringify({ 'strong-counter': { 'initial-value': 0, storage: 'PERSISTENT' } }));
        expect(r.status).to.equal(200);
        model.counters.set(`crash-counter-${w}`, [0n]);
      }
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const clients = Array.from({ length: CLIENTS }, (_, w) => client(w, http, model, random(Math.floor(rnd() * 2 ** 31)), tally));
        await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(rnd() * 1000)));
        proc!.child.kill('SIGKILL');
        await waitForExit(proc!.child);
        await Promise.all(clients);
        // both durability modes promise to survive kill -9
        http = await connect(cycle % 2 ? 'power' : 'process');
        await verify(http, model, check);
        expect(check.lost, `seed ${seed}, cycle ${cycle}: lost`).to.deep.equal([]);
        expect(check.torn, `seed ${seed}, cycle ${cycle}: torn`).to.deep.equal([]);
      }
      expect(tally.unexpected, `seed ${seed}`).to.deep.equal([]);
      expect(tally.persistent).to.be.above(CYCLES); // the clients did write in every cycle
      console.log(`      ${CYCLES} kills (seed ${seed}): ${tally.acknowledged} acknowledged writes, ${tally.persistent} of them persistent; lost 0, torn 0`);
    } finally {
      if (proc && proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGKILL');
        await waitForExit(proc.child);
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
