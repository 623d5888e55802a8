import { expect } from 'chai';
import type { Reply } from '../support/client';
import { putJson, registerSchema, type SearchBody } from '../support/search';
import { useServer } from '../support/server';
import { longestLoopDelay, STALL_BOUND_MS, whileProbing } from '../support/stall-probe';

// What a read-only user could once freeze the server with (regexps that backtrack, LIKE in
// O(value × pattern), a memo of huge compiled queries), sent as the observer (ALL_READ, MONITOR)
// while the anonymous health probe runs: each answers its result or a 400 naming its limit, and
// the probe keeps answering. docs/query.md, "Limits".

const SCHEMA = `package pat;
/* @Indexed */
message Doc {
  /* @Text */ optional string body = 1;
  /* @Keyword */ optional string tag = 2;
  optional string plain = 3;
}`;
const WORDS = 'the quick brown fox jumps over lazy dogs while seven tired engineers measure every stall'.split(' ');
const BIG = 'a'.repeat(200_000);

describe('search patterns from a read-only user never stall the server', () => {
  const server = useServer();
  const observer = server.as('observer');

  before(async function () {
    this.timeout(120_000);
    const admin = server.as('admin');
    await registerSchema(admin, 'pat.proto', SCHEMA);
    const protostream = { encoding: { 'media-type': 'application/x-protostream' } };
    await admin.createCache('pat-indexed', { 'local-cache': { ...protostream, indexing: { enabled: true, 'indexed-entities': ['pat.Doc'] } } });
    await admin.createCache('pat-plain', { 'local-cache': protostream });
    for (const cache of ['pat-indexed', 'pat-plain']) {
      for (let i = 0; i < 200; i++) {
        const body = Array.from({ length: 12 }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]).join(' ');
        await putJson(admin, cache, `w${i}`, { _type: 'pat.Doc', body, tag: `t${i}`, plain: `p${i} ${body}` });
      }
      // one term of 255 characters (the standard analyzer's longest) and 200 KB values
      await putJson(admin, cache, 'big', { _type: 'pat.Doc', body: 'a'.repeat(255), tag: BIG, plain: BIG });
    }
  });

  /**
   * The observer's search, while the probe runs: the probe must have kept answering. The server
   * runs in this process, so Node's own loop-delay monitor is asked too: a stall that falls
   * between two probes delays the next one's start, which the probe does not time.
   */
  const search = async (cache: string, query: string): Promise<Reply> => {
    const send = () => observer.post(`/rest/v2/caches/${cache}?action=search`, JSON.stringify({ query }), { 'Content-Type': 'application/json' });
    const { result: { result, probe }, maxMs } = await longestLoopDelay(() => whileProbing(server.url, send));
    expect(probe.failures, 'health probes that failed').to.equal(0);
    expect(probe.worstMs, 'slowest health probe (ms)').to.be.lessThan(STALL_BOUND_MS);
    expect(maxMs, 'longest event-loop delay (ms)').to.be.lessThan(STALL_BOUND_MS);
    return result;
  };
  const hitCount = async (cache: string, query: string): Promise<number> => {
    const r = await search(cache, query);
    expect(r.status, r.text).to.equal(200);
    return r.json<SearchBody>().hit_count;
  };
  const refusal = async (cache: string, query: string): Promise<string> => {
    const r = await search(cache, query);
    expect(r.status, r.text).to.equal(400);
    return r.json<{ error: { cause: string } }>().error.cause;
  };

  describe('full-text /regexp/ (finding 2)', () => {
    it('answers 90 stacked .* then x over ordinary words', async () => {
      // "fox" ends with x: every document holding it matches
      const expected = await hitCount('pat-indexed', "from pat.Doc where body : 'fox'");
      expect(expected).to.be.greaterThan(0);
      expect(await hitCount('pat-indexed', `from pat.Doc where body : /${'.*'.repeat(90)}x/`)).to.equal(expected);
    });

    it('answers 5 stacked .* then x over a 255-character term', async () => {
      const expected = await hitCount('pat-indexed', "from pat.Doc where body : 'fox'");
      expect(await hitCount('pat-indexed', `from pat.Doc where body : /${'.*'.repeat(5)}x/`)).to.equal(expected);
      expect(await hitCount('pat-indexed', `from pat.Doc where body : /${'.*'.repeat(5)}a/`)).to.equal(1);
    });

    it('refuses a regexp whose repetitions write out past 1,000 characters with 400 naming the limit', async () => {
      expect(await refusal('pat-indexed', 'from pat.Doc where body : /(a{40}){40}/')).to.contain('(limit: regexp size)');
    });
  });

  describe('LIKE (finding 3)', () => {
    const longest = `%${'a'.repeat(997)}b%`; // 1,000 characters, the longest pattern
    const underscores = `%${`${'a'.repeat(14)}_`.repeat(62)}b%`; // 64 wildcards, one 930-character piece

    it('answers the longest pattern against a 200 KB value on a scan and in the index', async () => {
      expect(longest).to.have.length(1000);
      expect(await hitCount('pat-plain', `from pat.Doc where plain like '${longest}'`)).to.equal(0);
      expect(await hitCount('pat-indexed', `from pat.Doc where tag like '${longest}'`)).to.equal(0);
      expect(await hitCount('pat-plain', `from pat.Doc where plain like '%${'a'.repeat(997)}%'`)).to.equal(1);
      expect(await hitCount('pat-indexed', `from pat.Doc where tag like '%${'a'.repeat(997)}%'`)).to.equal(1);
    });

    it('answers a long piece of one-character wildcards against a 200 KB value', async () => {
      expect(await hitCount('pat-plain', `from pat.Doc where plain like '${underscores}'`)).to.equal(0);
      expect(await hitCount('pat-indexed', `from pat.Doc where tag like '${underscores}'`)).to.equal(0);
    });

    it('answers 16 OR-ed LIKEs, the most a query may hold, over every entry', async () => {
      const ors = (field: string) => Array.from({ length: 16 }, (_, i) => `${field} like '%${'a'.repeat(30)}${i}%'`).join(' or ');
      expect(await hitCount('pat-plain', `from pat.Doc where ${ors('plain')}`)).to.equal(0);
      expect(await hitCount('pat-indexed', `from pat.Doc where ${ors('tag')}`)).to.equal(0);
    });

    it('refuses a 20 KB pattern, too many wildcards or patterns with 400 naming the limit', async () => {
      expect(await refusal('pat-plain', `from pat.Doc where plain like '%${'a'.repeat(20_000)}b%'`)).to.contain('is longer than 1000 characters (limit: pattern length)');
      expect(await refusal('pat-indexed', `from pat.Doc where tag like '${'a%'.repeat(65)}'`)).to.contain('has more than 64 wildcards (limit: pattern wildcards)');
      const many = Array.from({ length: 3000 }, (_, i) => `plain like '%a${i}%'`).join(' or ');
      expect(await refusal('pat-plain', `from pat.Doc where ${many}`)).to.contain('would take more than 32 steps per character of the values they read (limit: pattern work per query)');
      const one = Array.from({ length: 17 }, (_, i) => `tag like '%a${i}%'`).join(' or ');
      expect(await refusal('pat-indexed', `from pat.Doc where ${one}`)).to.contain('(limit: pattern work per query)');
      expect(await refusal('pat-plain', `from pat.Doc where plain like '${underscores}' and plain like '%a%'`)).to.contain('(limit: pattern work per query)');
      expect(await refusal('pat-indexed', `from pat.Doc where body : 'a${'*a'.repeat(70)}'`)).to.contain('(limit: pattern wildcards)');
    });
  });

  describe('compiled queries (finding 6)', () => {
    it('answers 256 distinct 99 KB LIKE queries with 400 and keeps no memory for them', async () => {
      const used = process.memoryUsage().rss;
      for (let i = 0; i < 256; i++) {
        const query = `from pat.Doc where tag like '${i}%${'ab%'.repeat(33_000)}'`.slice(0, 99_000) + "'";
        const r = await observer.post('/rest/v2/caches/pat-plain?action=search', JSON.stringify({ query }), { 'Content-Type': 'application/json' });
        expect(r.status, r.text.slice(0, 200)).to.equal(400);
      }
      // generous: the refused queries are never compiled; 256 compiled ones once held ~700 MB
      expect(process.memoryUsage().rss - used, 'RSS growth (bytes)').to.be.lessThan(200 * 1024 * 1024);
      expect(await hitCount('pat-plain', "from pat.Doc where tag like 't1%'")).to.equal(111);
    });
  });
});
