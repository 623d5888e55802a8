'use strict';
// The latency client of bench/query.js, in a process of its own as an application would be: reads
// {"url", "runs": [{"label", "paths": [...]}]} on stdin, sends each run's GETs one after the other
// on one keep-alive connection (node:http, no Accept-Encoding, as curl), and prints one JSON line
// per run: p50, p99 and the most hits seen. Ten warm-up requests per run (the paths' first ten).
const http = require('node:http');

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(base, path) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, path, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode >= 300) reject(new Error(`GET ${path}: ${res.statusCode} ${body}`));
        else resolve(body);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const { url, runs } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const base = new URL(url);
  for (const { label, paths } of runs) {
    for (const p of paths.slice(0, 10)) await get(base, p);
    const times = [];
    let hits = 0;
    for (const p of paths) {
      const t0 = performance.now();
      const body = await get(base, p);
      times.push(performance.now() - t0);
      hits = Math.max(hits, JSON.parse(body).hits.length);
    }
    times.sort((a, b) => a - b);
    console.log(JSON.stringify({ label, p50: pct(times, 50), p99: pct(times, 99), hits }));
  }
  agent.destroy();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
