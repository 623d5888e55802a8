'use strict';
// Baseline: a Koa app answering a constant (BENCH_BODY_BYTES, 100 by default) to GET, and reading
// the whole body then answering 204 to anything else (PUT). BENCH_H2=1: over HTTP/2 cleartext.
const Koa = require('koa');
const body = Buffer.alloc(Number(process.env.BENCH_BODY_BYTES || 100), 'x');
const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method === 'GET') {
    ctx.type = 'application/octet-stream';
    ctx.body = body;
    return;
  }
  const chunks = [];
  for await (const chunk of ctx.req) chunks.push(chunk);
  Buffer.concat(chunks);
  ctx.status = 204;
});
const server = process.env.BENCH_H2 ? require('node:http2').createServer(app.callback()) : require('node:http').createServer(app.callback());
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
