import { expect } from 'chai';
import { buildOpenApiDocument } from '../../../src/http/openapi/openapi-document';
import { param } from '../../../src/http/route-doc';
import type { RouteSpec } from '../../../src/http/route-spec';
import { openApiErrors } from '../../support/openapi-validator';

const handle = () => undefined;
const FACTS = { version: '1.2.3', authEnabled: true };

/** A small table with the shapes the real ones have: actions, anonymous rows, a cache scope, a rest segment. */
const ROWS: RouteSpec[] = [
  { method: 'GET', path: '/rest/v2/things/:cache', scope: 'cache', permission: 'MONITOR', requiresContainer: true, handle, doc: { summary: 'Details', responses: { 200: 'The details' } } },
  { method: 'GET', path: '/rest/v2/things/:cache', action: 'keys', scope: 'cache', permission: 'BULK_READ', requiresContainer: true, handle,
    doc: { summary: 'Keys', query: [param('limit', 'At most', { type: 'integer' })], responses: { 200: { description: 'The keys', content: ['application/json'] } } } },
  { method: 'POST', path: '/rest/v2/things/:cache', action: 'bump', permission: 'WRITE', handle, doc: { summary: 'Bump', query: [param('by', 'How much', { required: true, repeated: true })], responses: { 204: 'Done' } } },
  { method: 'GET', path: '/rest/v2/open', permission: 'AUTHENTICATED', anonymous: true, perContainer: true, handle, doc: { summary: 'Open', responses: { 200: 'Yes' } } },
  { method: 'GET', path: '/rest/v2/mixed', permission: 'AUTHENTICATED', anonymous: true, handle, doc: { summary: 'Open part', responses: { 200: 'Yes' } } },
  { method: 'GET', path: '/rest/v2/mixed', action: 'secret', permission: 'ADMIN', handle, doc: { summary: 'Closed part', responses: { 200: 'Yes' } } },
  { method: 'GET', path: '/files/*file', permission: 'AUTHENTICATED', anonymous: true, handle, doc: { summary: 'A file', params: { file: 'Path of the file' }, responses: { 200: 'It' } } },
  { method: 'DELETE', path: '/rest/v2/things/:cache', permission: 'CREATE', handle },
];

describe('buildOpenApiDocument', () => {
  const doc = buildOpenApiDocument(ROWS, FACTS);
  const things = doc.paths['/rest/v2/things/{cache}'];

  it('is a valid OpenAPI 3.1 document, even with an undocumented row', async () => {
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info.version).to.equal('1.2.3');
    const errors = await openApiErrors(doc);
    expect(errors, errors.join('\n')).to.deep.equal([]);
    expect(things.delete!.responses.default.description).to.equal('Not documented yet');
  });

  it('makes the rows of one path and method one operation, the action a query enum, optional beside a plain row', () => {
    const get = things.get!;
    expect(get.summary).to.equal('Details; actions: keys');
    const action = get.parameters!.find((p) => p.name === 'action')!;
    expect(action).to.deep.include({ in: 'query', required: false, schema: { type: 'string', enum: ['keys'] } });
    expect(get['x-actions']).to.deep.equal([{ action: 'keys', summary: 'Keys', permission: 'BULK_READ', parameters: ['limit'] }]);
    expect(get.description).to.contain('| `keys` | Keys | BULK_READ on the cache `{cache}` |');
    const post = things.post!;
    expect(post.parameters!.find((p) => p.name === 'action')).to.deep.include({ required: true, schema: { type: 'string', enum: ['bump'] } });
  });

  it('takes path parameters from the path, a `*rest` segment included, with the row\'s description', () => {
    expect(things.get!.parameters![0]).to.deep.equal({ name: 'cache', in: 'path', required: true, schema: { type: 'string' }, description: 'Cache name or alias' });
    const file = doc.paths['/files/{file}'].get!.parameters![0];
    expect(file).to.deep.include({ name: 'file', in: 'path', required: true, description: 'Path of the file' });
  });

  it('says which action reads a query parameter; a repeatable one is an exploded array', () => {
    const limit = things.get!.parameters!.find((p) => p.name === 'limit')!;
    expect(limit.description).to.equal('At most (action=keys)');
    expect(limit.required).to.equal(undefined);
    const by = things.post!.parameters!.find((p) => p.name === 'by')!;
    expect(by).to.deep.include({ required: true, explode: true, schema: { type: 'array', items: { type: 'string' } } });
  });

  it('names the permission: one name, or one per action', () => {
    expect(things.post!['x-permission']).to.equal('WRITE');
    expect(things.get!['x-permission']).to.deep.equal({ '(none)': 'MONITOR', keys: 'BULK_READ' });
    expect(doc.paths['/rest/v2/open'].get!['x-permission']).to.equal('ANONYMOUS');
  });

  it('needs no credentials for anonymous rows, either for partly anonymous operations, the global schemes otherwise', () => {
    expect(doc.paths['/rest/v2/open'].get!.security).to.deep.equal([]);
    expect(doc.paths['/rest/v2/mixed'].get!.security).to.deep.equal([{}, { basic: [] }, { digest: [] }]);
    expect(things.get!.security).to.equal(undefined);
    expect(doc.security).to.deep.equal([{ basic: [] }, { digest: [] }]);
  });

  it('adds the statuses the pipeline answers from what the rows declare, saying which rows they belong to', () => {
    const get = things.get!.responses;
    expect(get['200']).to.deep.equal({ description: '- The details (without action)\n- The keys (action=keys)', content: { 'application/json': {} } });
    expect(get['400'].description).to.equal('Unknown or empty `action`');
    expect(get['401'].description).to.contain('credentials');
    expect(get['403'].description).to.contain('x-permission');
    expect(get['404'].description).to.equal('No such cache');
    expect(get['503'].description).to.contain('ignore list').and.contain('shut down');
    const mixed = doc.paths['/rest/v2/mixed'].get!.responses;
    expect(mixed['401'].description).to.contain('credentials');
    const twoActions = buildOpenApiDocument([
      { method: 'POST', path: '/x', action: 'a', permission: 'READ', handle, doc: { summary: 'A', responses: { 204: 'Done', 409: 'Busy' } } },
      { method: 'POST', path: '/x', action: 'b', permission: 'READ', handle, doc: { summary: 'B', responses: { 204: 'Done' } } },
      { method: 'POST', path: '/x', action: 'c', permission: 'READ', handle, doc: { summary: 'C', responses: { 204: 'Done', 409: 'Busy' } } },
    ], FACTS).paths['/x'].post!.responses;
    expect(twoActions['204'].description).to.equal('Done');
    expect(twoActions['409'].description).to.equal('Busy (action=a, action=c)');
    const post = things.post!.responses;
    expect(post['403'].description).to.equal('The caller lacks WRITE');
    expect(post).not.to.have.any.keys('404', '503');
    expect(doc.paths['/rest/v2/open'].get!.responses).to.have.keys('200');
  });

  it('tags operations by resource and gives each a unique id', () => {
    expect(things.get!.tags).to.deep.equal(['things']);
    expect(doc.paths['/files/{file}'].get!.tags).to.deep.equal(['files']);
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op!.operationId));
    expect(new Set(ids).size).to.equal(ids.length);
    expect(things.get!.operationId).to.equal('getRestV2ThingsByCache');
  });

  it('marks the operations of one container, which tenants reach under /rest/<tenant>/', () => {
    expect(doc.paths['/rest/v2/open'].get!['x-per-container']).to.equal(true);
    expect(things.get!['x-per-container']).to.equal(undefined);
  });

  it('says when authentication is off', () => {
    expect(buildOpenApiDocument(ROWS, { ...FACTS, authEnabled: false }).info.description).to.contain('Authentication is off');
  });
});
