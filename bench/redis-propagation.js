'use strict';
// `npm run build && node bench/redis-propagation.js` (needs redis-server): how long what is done
// through one grid node takes to reach a listener on another, over a throwaway 3+3 cluster
// (docs/scale-out.md, "How fast changes travel"). Two grid nodes A and B (`--durability power`);
// a listener on B of a cache's entries and one of the container's configuration; then, through A:
//   - PUTs of distinct keys, one at a time, and again from 8 writers at once;
//   - cache creations and removals, one at a time.
// For each, from when the request was sent to A to when B's stream delivered its event (the write's
// own latency included), and from when A acknowledged it (its event may come before: a write's
// script publishes the event before the replica wait): p50, p99 and the largest.
const http = require('node:http');
const { mkdtempSync } = require('node:fs');
const { join } = require('node:path');
const lib = require('./lib');

const PUTS = Number(process.env.BENCH_PUTS || 1000);
const CACHES = Number(process.env.BENCH_CACHES || 100);
const WRITERS = 8;

/** Server-sent events of `path` on `server`, each handed to `onEvent(event, data)` as it arrives. */
function listen(server, path, onEvent) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${server.url}${path}`, { headers: { Authorization: lib.AUTH, Accept: 'application/json' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`listen ${path}: ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const lines = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          const field = (name) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
          if (field('data') !== undefined) onEvent(field('event'), field('data'));
        }
      });
      resolve(() => req.destroy());
    });
    req.on('error', reject);
  });
}

function percentiles(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  return `p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms (${sorted.length})`;
}

/**
 * Runs `count` operations through `send(i)` (`width` at once) and waits for each one's event on the
 * other node, which `arrived` resolves by the operation's name; prints both delays.
 */
async function measure(label, count, width, nameOf, send, heard) {
  const fromSend = [];
  const fromAck = [];
  await lib.inFlight(count, width, async (i) => {
    const name = nameOf(i);
    const event = heard(name);
    const sent = performance.now();
    await send(i);
    const acked = performance.now();
    const at = await event;
    fromSend.push(at - sent);
    fromAck.push(Math.max(0, at - acked));
  });
  console.log(`${label}\n  from the request sent:         ${percentiles(fromSend)}\n  from its acknowledgement:      ${percentiles(fromAck)}`);
}

/** Names whose event is awaited, resolved (with the time it came) when the stream delivers it. */
function awaited() {
  const waiting = new Map();
  return {
    heard: (name) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no event for ${name} within 10 s`)), 10_000);
      waiting.set(name, (at) => { clearTimeout(timer); resolve(at); });
    }),
    deliver: (name) => {
      const done = waiting.get(name);
      if (!done) return;
      waiting.delete(name);
      done(performance.now());
    },
  };
}

async function main() {
  await lib.withThrowawayCluster(async ({ cluster, seeds }) => {
    const nodes = [];
    const closers = [];
    try {
      for (let i = 0; i < 2; i++) {
        nodes.push(await lib.startServer(['start', '--port', '0', '--data', mkdtempSync(join(lib.TMP, 'node-')), '--engine', 'redis', '--redis', seeds.join(','),
          '--redis-password-file', cluster.passwordFile], { APP_USER: 'bench', APP_PASS: 'bench-pw' }, join(lib.ROOT, 'bin', 'grid'), { pinned: false }));
      }
      const [a, b] = nodes;
      await lib.request(a.url, 'POST', '/rest/v2/caches/watched', '{"local-cache":{}}', { 'Content-Type': 'application/json' });
      await new Promise((r) => setTimeout(r, 500)); // B adopts the cache (within milliseconds)
      const entries = awaited();
      closers.push(await listen(b, '/rest/v2/caches/watched?action=listen', (event, key) => { if (event === 'cache-entry-created') entries.deliver(key); }));
      // B follows the cache's channels once its listener is in place: probe until a write is heard
      for (let i = 0; ; i++) {
        const probe = entries.heard(`probe-${i}`).then(() => true, () => false);
        await lib.request(a.url, 'PUT', `/rest/v2/caches/watched/probe-${i}`, 'v', { 'Content-Type': 'text/plain' });
        if (await Promise.race([probe, new Promise((r) => setTimeout(() => r(false), 200))])) break;
      }
      const value = 'x'.repeat(100);
      const put = (prefix) => (i) => lib.request(a.url, 'PUT', `/rest/v2/caches/watched/${prefix}${i}`, value, { 'Content-Type': 'text/plain' });
      console.log(`the redis engine: two grid nodes on a 3+3 cluster on this machine; A writes, B's listener hears`);
      await measure(`entry events, one PUT at a time (${PUTS})`, PUTS, 1, (i) => `one-${i}`, put('one-'), entries.heard);
      await measure(`entry events, ${WRITERS} writers at once (${PUTS})`, PUTS, WRITERS, (i) => `many-${i}`, put('many-'), entries.heard);

      const configs = awaited();
      closers.push(await listen(b, '/rest/v2/container/config?action=listen', (event, data) => {
        // a creation carries the cache's document (its name the one key under `caches`), a removal the name alone
        if (event === 'create-cache') configs.deliver(`${event} ${Object.keys(JSON.parse(data).infinispan['cache-container'].caches)[0]}`);
        if (event === 'remove-cache') configs.deliver(`${event} ${data}`);
      }));
      await measure(`cache creations (${CACHES})`, CACHES, 1, (i) => `create-cache c${i}`,
        (i) => lib.request(a.url, 'POST', `/rest/v2/caches/c${i}`, '{"local-cache":{}}', { 'Content-Type': 'application/json' }), configs.heard);
      await measure(`cache removals (${CACHES})`, CACHES, 1, (i) => `remove-cache c${i}`, (i) => lib.request(a.url, 'DELETE', `/rest/v2/caches/c${i}`), configs.heard);
    } finally {
      for (const close of closers) close();
      await Promise.all(nodes.map((n) => n.stop()));
    }
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
