import { expect } from 'chai';
import { type ClientRequest, request } from 'node:http';
import { basicAuth } from '../support/raw-http';
import { useServer } from '../support/server';

// Request bodies are read whole before they are used; those still arriving share one budget,
// request-body-memory (docs/security.md, Limits), so that unfinished uploads cannot make the server
// hold max-content-length times the connections a user may open.

const MB = 1024 * 1024;
const BUDGET = 20 * MB;

describe('request bodies being received share a budget (request-body-memory)', () => {
  const server = useServer({ limits: { requestBodyMemory: BUDGET } });
  const application = server.as('application');

  before(async () => {
    await server.as('admin').createCache('uploads');
  });

  /** A PUT declaring 9.5 MB whose first 9 MB are sent and the rest never. */
  async function unfinishedUpload(key: string): Promise<ClientRequest> {
    const url = new URL(`/rest/v2/caches/uploads/${key}`, server.url);
    const req = request(url, { method: 'PUT', headers: { ...basicAuth('application'), 'Content-Length': String(9.5 * MB) } });
    req.on('error', () => undefined);
    await new Promise<void>((resolve) => req.write(Buffer.alloc(9 * MB, 'u'), () => resolve()));
    return req;
  }

  /** Waits until the server holds `bytes` of bodies (it reads what was sent as it comes). */
  async function serverHolds(bytes: number): Promise<void> {
    for (let i = 0; i < 200 && server.running.bodies.holding < bytes; i++) await new Promise((r) => setTimeout(r, 25));
    expect(server.running.bodies.holding).to.be.at.least(bytes);
  }

  it('answers 503 with Retry-After to a body past the budget, and takes bodies again once the others are gone', async () => {
    const held = [await unfinishedUpload('a'), await unfinishedUpload('b')];
    await serverHolds(18 * MB);
    const refused = await application.put('/rest/v2/caches/uploads/c', Buffer.alloc(3 * MB, 'c'));
    expect(refused.status).to.equal(503);
    expect(refused.headers.get('retry-after')).to.equal('1');
    expect(refused.text).to.equal(`Request bodies being received hold ${BUDGET} bytes already (limit request-body-memory); retry later`);
    expect((await application.get('/rest/v2/caches/uploads/c')).status).to.equal(404);

    for (const req of held) req.destroy();
    for (let i = 0; i < 200 && server.running.bodies.holding > 0; i++) await new Promise((r) => setTimeout(r, 25));
    const stored = await application.put('/rest/v2/caches/uploads/c', Buffer.alloc(3 * MB, 'c'));
    expect(stored.status).to.equal(204);
    expect((await application.get('/rest/v2/caches/uploads/c')).bytes.length).to.equal(3 * MB);
  });

  it('counts a compressed body by its decoded bytes', async () => {
    const { gzipSync } = await import('node:zlib');
    const held = [await unfinishedUpload('d'), await unfinishedUpload('e')];
    await serverHolds(18 * MB);
    const refused = await application.put('/rest/v2/caches/uploads/f', gzipSync(Buffer.alloc(3 * MB, 'f')), { 'Content-Encoding': 'gzip' });
    expect(refused.status).to.equal(503);
    for (const req of held) req.destroy();
  });
});
