'use strict';
// Baseline: a Koa app answering a constant.
const Koa = require('koa');
const body = Buffer.from('x'.repeat(100));
const app = new Koa();
app.use(async (ctx) => {
  ctx.type = 'application/octet-stream';
  ctx.body = body;
});
const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
