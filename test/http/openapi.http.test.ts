import { expect } from 'chai';
import { allRoutes } from '../../src/http/app';
import { openApiPath, permissionOf } from '../../src/http/openapi/openapi-operation';
import type { OpenApiDocument, OpenApiOperation } from '../../src/http/openapi/openapi-types';
import { PATH_PARAMS } from '../../src/http/route-doc';
import type { RouteSpec } from '../../src/http/route-spec';
import { openApiErrors } from '../support/openapi-validator';
import { useServer, withServer } from '../support/server';

const DOC = '/rest/v2/openapi';

function describeRow(r: RouteSpec): string {
  return `${r.method} ${r.path}${r.action === undefined ? '' : `?action=${r.action}`}`;
}

function operationOf(doc: OpenApiDocument, r: RouteSpec): OpenApiOperation | undefined {
  return doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase() as 'get'];
}

/** What a developer who added rows without a doc must write. */
const HOW_TO_DOCUMENT = [
  'Add to each of these rows, in its table in src/http/routes/*.routes.ts:',
  "    doc: { summary: 'What it does, in one line', responses: { 200: json('What it answers'), 404: 'When it answers 404' } },",
  '  with query: [...], headers: [...] and body: [media types] when the handler reads them',
  '  (RouteDoc and the shared shapes are in src/http/route-doc.ts; authentication, permission, a missing cache,',
  '  an unknown action and a stopped container are added from the row itself).',
].join('\n');

describe('GET /rest/v2/openapi', function () {
  this.timeout(60_000);
  const server = useServer();
  let routes: RouteSpec[];
  let doc: OpenApiDocument;

  before(async () => {
    routes = allRoutes();
    const res = await server.anonymous().get(DOC);
    expect(res.status).to.equal(200);
    doc = res.json<OpenApiDocument>();
  });

  it('answers without credentials, authentication on: an OpenAPI 3.1 document in JSON', async () => {
    const res = await server.anonymous().get(DOC);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(doc.openapi).to.match(/^3\.1\./);
    expect(doc.info.title).to.be.a('string');
    expect(doc.info.description).not.to.contain('Authentication is off');
  });

  it('validates against the OpenAPI 3.1 schema', async () => {
    const errors = await openApiErrors(doc);
    expect(errors, errors.join('\n')).to.deep.equal([]);
  });

  it('answers the same document to an authenticated caller', async () => {
    const res = await server.as('monitor').get(DOC);
    expect(res.status).to.equal(200);
    expect(res.json()).to.deep.equal(doc);
  });

  it('has every row of the route tables: its path, method and ?action=', () => {
    expect(routes.length).to.be.above(150);
    const missing: string[] = [];
    for (const r of routes) {
      const op = operationOf(doc, r);
      if (!op) {
        missing.push(`${describeRow(r)}: no operation ${r.method.toLowerCase()} at paths['${openApiPath(r.path)}']`);
        continue;
      }
      if (r.action === undefined) continue;
      const action = op.parameters?.find((p) => p.name === 'action' && p.in === 'query');
      if (!action?.schema.enum?.includes(r.action)) missing.push(`${describeRow(r)}: '${r.action}' is not in the action parameter's enum`);
      if (!op['x-actions']?.some((a) => a.action === r.action)) missing.push(`${describeRow(r)}: '${r.action}' is not in x-actions`);
    }
    expect(missing, missing.join('\n')).to.deep.equal([]);
  });

  it('knows what every row does and answers (each row carries a doc with a summary and its statuses)', () => {
    const undocumented = routes.filter((r) => !r.doc?.summary || Object.keys(r.doc.responses).length === 0).map(describeRow);
    expect(undocumented, `${undocumented.join('\n')}\n${HOW_TO_DOCUMENT}`).to.deep.equal([]);
  });

  it('describes every path parameter', () => {
    const bare: string[] = [];
    for (const r of routes) {
      for (const p of operationOf(doc, r)?.parameters?.filter((x) => x.in === 'path') ?? []) {
        if (p.description === p.name) {
          bare.push(`:${p.name} in ${describeRow(r)} has no description: add \`${p.name}: '…'\` to PATH_PARAMS in src/http/route-doc.ts, or \`params: { ${p.name}: '…' }\` to the row's doc`);
        }
      }
    }
    expect(bare, bare.join('\n')).to.deep.equal([]);
    const op = operationOf(doc, routes.find((r) => r.path === '/rest/v2/caches/:cache' && r.method === 'GET')!)!;
    expect(op.parameters!.find((p) => p.name === 'cache')).to.include({ in: 'path', required: true, description: PATH_PARAMS.cache });
  });

  it('names the permission of each row, as the row says, and asks anonymous rows for no credentials', () => {
    const wrong: string[] = [];
    for (const r of routes) {
      const op = operationOf(doc, r)!;
      const declared = typeof op['x-permission'] === 'string' ? op['x-permission'] : op['x-permission'][r.action ?? '(none)'];
      if (declared !== permissionOf(r)) wrong.push(`${describeRow(r)}: x-permission ${declared}, the row says ${permissionOf(r)}`);
      const action = op['x-actions']?.find((a) => a.action === r.action);
      if (action && action.permission !== permissionOf(r)) wrong.push(`${describeRow(r)}: x-actions says ${action.permission}`);
      // anonymous: an empty requirement is among the operation's; otherwise a scheme is (or the global ones apply)
      const security = op.security ?? doc.security;
      const allowsNone = security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0);
      const allowsScheme = security.some((requirement) => Object.keys(requirement).length > 0);
      if (r.anonymous ? !allowsNone : !allowsScheme) wrong.push(`${describeRow(r)}: security ${JSON.stringify(security)}`);
    }
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
    expect(doc.components.securitySchemes).to.have.keys('basic', 'digest');
    expect(doc.security).to.deep.equal([{ basic: [] }, { digest: [] }]);
    expect(doc.paths[DOC].get!.security).to.deep.equal([]);
    expect(doc.paths['/rest/v2/caches/{cache}'].get!['x-permission']).to.deep.include({ '(none)': 'MONITOR', keys: 'BULK_READ', config: 'ADMIN' });
  });

  it('carries the rows\' query parameters, request media types and statuses', () => {
    const get = doc.paths['/rest/v2/caches/{cache}'].get!;
    expect(get.parameters!.map((p) => p.name)).to.include.members(['cache', 'action', 'limit', 'metadata', 'includeCurrentState']);
    expect(get.parameters!.find((p) => p.name === 'action')!.required).to.equal(false);
    expect(get.responses).to.include.keys('200', '400', '401', '403', '404', '503');
    const create = doc.paths['/rest/v2/caches/{cache}'].post!;
    expect(create.requestBody!.content).to.include.keys('application/json', 'application/xml', 'application/yaml');
    expect(create.responses['404'].description, 'creating needs no cache; its actions do').to.equal('No such cache (with any action)');
    const counter = doc.paths['/rest/v2/counters/{counter}'].post!;
    expect(counter.responses['204'].description).to.contain('weak');
    expect(counter.parameters!.find((p) => p.name === 'delta')!.description).to.contain('action=add');
    const stop = doc.paths['/rest/v2/server'].post!;
    expect(stop.parameters!.find((p) => p.name === 'action')).to.deep.include({ required: true, schema: { type: 'string', enum: ['stop'] } });
  });

  it('refuses other methods (405) and any ?action= (400)', async () => {
    expect((await server.anonymous().post(DOC, '')).status).to.equal(405);
    expect((await server.anonymous().get(`${DOC}?action=keys`)).status).to.equal(400);
  });

  it('says so when authentication is off', async () => {
    await withServer({ authEnabled: false }, async (open) => {
      const res = await open.anonymous().get(DOC);
      expect(res.status).to.equal(200);
      expect(res.json<OpenApiDocument>().info.description).to.contain('Authentication is off');
    });
  });
});
