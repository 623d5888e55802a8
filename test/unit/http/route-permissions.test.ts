import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { allRoutes } from '../../../src/http/app';
import type { RouteSpec } from '../../../src/http/route-spec';

/**
 * The permission each route asks for, held against a reviewed list
 * (test/fixtures/golden/route-permissions.txt). The authorization matrix and the OpenAPI test take
 * their expectations from the route table itself, so a row whose permission changed by mistake
 * would pass both; here the change shows up as a diff someone must look at. After a deliberate
 * change: `GRID_UPDATE_GOLDEN=1 npx mocha dist/test/unit/http/route-permissions.test.js`, then
 * review the diff of the file in the commit.
 */
const GOLDEN = resolve(__dirname, '../../../../test/fixtures/golden/route-permissions.txt');

function line(r: RouteSpec): string {
  const what = `${r.method} ${r.path}${r.action ? ` ?action=${r.action}` : ''}`;
  const who = r.anonymous ? 'anonymous' : r.permission;
  const cache = r.scope === 'cache' ? ' (cache must exist)' : '';
  return `${what.padEnd(72)} ${who}${cache}`;
}

describe('route permissions: the route table against the reviewed list', () => {
  it('asks every route for the permission the reviewed list gives it', () => {
    const actual = allRoutes().map(line).join('\n') + '\n';
    if (process.env.GRID_UPDATE_GOLDEN) writeFileSync(GOLDEN, actual);
    const expected = readFileSync(GOLDEN, 'utf8');
    const added = actual.split('\n').filter((l) => !expected.split('\n').includes(l));
    const removed = expected.split('\n').filter((l) => !actual.split('\n').includes(l));
    expect({ added, removed }, 'rows that differ from test/fixtures/golden/route-permissions.txt').to.deep.equal({ added: [], removed: [] });
    expect(actual).to.equal(expected);
  });
});
