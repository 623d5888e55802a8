import { expect } from 'chai';
import type { HttpMethod, RouteSpec } from '../../../src/http/route-spec';
import { Router, splitPath } from '../../../src/http/router';
import { thrown } from '../../support/thrown';

const rejection = (fn: () => unknown) => thrown(fn);

/** A route whose handler is never called: matching only looks at method, path and action. */
function route(method: HttpMethod, path: string, action?: string): RouteSpec {
  return { method, path, action, permission: 'READ', handle: () => undefined };
}

const listCaches = route('GET', '/rest/v2/caches');
const cacheDetails = route('GET', '/rest/v2/caches/:cache');
const cacheConfig = route('GET', '/rest/v2/caches/:cache', 'config');
const cacheKeys = route('GET', '/rest/v2/caches/:cache', 'keys');
const createCache = route('POST', '/rest/v2/caches/:cache');
const getEntry = route('GET', '/rest/v2/caches/:cache/:key');
const putEntry = route('PUT', '/rest/v2/caches/:cache/:key');
const containerStats = route('GET', '/rest/v2/caches/container-stats');
const shutdown = route('POST', '/rest/v2/container', 'shutdown');

const router = new Router([listCaches, cacheDetails, cacheConfig, cacheKeys, createCache, getEntry, putEntry, containerStats, shutdown]);

describe('splitPath (docs/reference/http.md#routing)', () => {
  it('splits on / and drops empty segments, so trailing and doubled slashes do not matter', () => {
    expect(splitPath('/rest/v2/caches')).to.deep.equal(['rest', 'v2', 'caches']);
    expect(splitPath('/rest/v2/caches/')).to.deep.equal(['rest', 'v2', 'caches']);
    expect(splitPath('//rest//v2///caches')).to.deep.equal(['rest', 'v2', 'caches']);
    expect(splitPath('/')).to.deep.equal([]);
    expect(splitPath('')).to.deep.equal([]);
  });

  it('form-decodes: + becomes a space, %2B is a +', () => {
    expect(splitPath('/caches/a+b/c%2Bd')).to.deep.equal(['caches', 'a b', 'c+d']);
  });

  it('decodes %2F to a / inside one segment', () => {
    expect(splitPath('/caches/a%2Fb/k')).to.deep.equal(['caches', 'a/b', 'k']);
  });

  it('decodes percent-encoded UTF-8', () => {
    expect(splitPath('/caches/k%C3%A4se%20%E2%82%AC')).to.deep.equal(['caches', 'käse €']);
  });

  it('decodes once: %25 gives a literal %, so %252F stays %2F', () => {
    expect(splitPath('/caches/a%25bc/a%252Fb')).to.deep.equal(['caches', 'a%bc', 'a%2Fb']);
  });

  it('decodes the names of the original\'s encoded-name tests as its client (URLEncoder) sends them', () => {
    const sent = ['a%2F', 'a%2Fb%2Fc', 'a-b-c', '%C3%A1b%5C%C4%87%C3%A9%2F%2B-%24', 'org.infinispan.cache', 'a%2525bc'];
    expect(splitPath(`/${sent.join('/')}`)).to.deep.equal(['a/', 'a/b/c', 'a-b-c', 'áb\\ćé/+-$', 'org.infinispan.cache', 'a%25bc']);
  });

  it('turns bytes that are not UTF-8 into U+FFFD, as Java decodes them, instead of refusing the path', () => {
    expect(splitPath('/caches/%C0%AFx/%FF')).to.deep.equal(['caches', '\uFFFD\uFFFDx', '\uFFFD']);
    expect(splitPath('/caches/%E2%82')).to.deep.equal(['caches', '\uFFFD']);
  });

  for (const bad of ['/caches/%zz', '/caches/100%', '/caches/%4', '/caches/a%4g']) {
    it(`answers 400 for the malformed escape in ${bad}`, () => {
      expect(rejection(() => splitPath(bad)).status).to.equal(400);
    });
  }
});

describe('Router.match (docs/reference/http.md#routing)', () => {
  it('matches a literal path', () => {
    expect(router.match('GET', '/rest/v2/caches', undefined).route).to.equal(listCaches);
  });

  it('treats a trailing slash like none', () => {
    expect(router.match('GET', '/rest/v2/caches/', undefined).route).to.equal(listCaches);
  });

  it('binds :parameters to the decoded segments', () => {
    const m = router.match('GET', '/rest/v2/caches/my%2Fcache/a+key', undefined);
    expect(m.route).to.equal(getEntry);
    expect(m.params).to.deep.equal({ cache: 'my/cache', key: 'a key' });
  });

  it('prefers a literal segment over a parameter', () => {
    const m = router.match('GET', '/rest/v2/caches/container-stats', undefined);
    expect(m.route).to.equal(containerStats);
    expect(m.params).to.deep.equal({});
  });

  it('uses the parameter for any other segment at that place', () => {
    const m = router.match('GET', '/rest/v2/caches/orders', undefined);
    expect(m.route).to.equal(cacheDetails);
    expect(m.params).to.deep.equal({ cache: 'orders' });
  });

  it('commits to a literal segment: a path that continues past it does not fall back to the parameter', () => {
    // `/rest/v2/unknown` is a 404, not the legacy entry `/rest/{cache}/{key}` of a cache "v2" (docs/reference/http.md#routing).
    const err = rejection(() => router.match('GET', '/rest/v2/caches/container-stats/k', undefined));
    expect(err.status).to.equal(404);
  });

  it('tells routes apart by method', () => {
    expect(router.match('PUT', '/rest/v2/caches/c/k', undefined).route).to.equal(putEntry);
    expect(router.match('GET', '/rest/v2/caches/c/k', undefined).route).to.equal(getEntry);
  });

  describe('?action=', () => {
    it('without action picks the route without action', () => {
      expect(router.match('GET', '/rest/v2/caches/c', undefined).route).to.equal(cacheDetails);
    });

    it('with action picks the route of that action', () => {
      expect(router.match('GET', '/rest/v2/caches/c', 'config').route).to.equal(cacheConfig);
      expect(router.match('GET', '/rest/v2/caches/c', 'keys').route).to.equal(cacheKeys);
    });

    it('an unknown action answers 400 "Invalid \'action\' parameter supplied"', () => {
      const err = rejection(() => router.match('GET', '/rest/v2/caches/c', 'nope'));
      expect(err.status).to.equal(400);
      expect(err.message).to.equal("Invalid 'action' parameter supplied");
    });

    it('an action on a path whose method only has a route without action answers 400', () => {
      expect(rejection(() => router.match('PUT', '/rest/v2/caches/c/k', 'config')).message).to.equal("Invalid 'action' parameter supplied");
    });

    it('no action on a path whose method only has routes with an action answers 400', () => {
      expect(rejection(() => router.match('POST', '/rest/v2/container', undefined)).message).to.equal("Invalid 'action' parameter supplied");
    });

    it('an empty action answers 400 "Invalid action"', () => {
      const err = rejection(() => router.match('GET', '/rest/v2/caches/c', ''));
      expect(err.status).to.equal(400);
      expect(err.message).to.equal('Invalid action');
    });

    it('action names are case-sensitive', () => {
      expect(rejection(() => router.match('GET', '/rest/v2/caches/c', 'CONFIG')).status).to.equal(400);
    });
  });

  describe('failures', () => {
    it('an unknown path answers 404 "Resource not found"', () => {
      const err = rejection(() => router.match('GET', '/rest/v2/nothing', undefined));
      expect(err.status).to.equal(404);
      expect(err.message).to.equal('Resource not found');
    });

    it('a path deeper than any route answers 404', () => {
      expect(rejection(() => router.match('GET', '/rest/v2/caches/c/k/extra', undefined)).status).to.equal(404);
    });

    it('a path that is only a prefix of routes answers 404', () => {
      expect(rejection(() => router.match('GET', '/rest/v2', undefined)).status).to.equal(404);
      expect(rejection(() => router.match('GET', '/', undefined)).status).to.equal(404);
    });

    it('an unknown path answers 404 whatever the action', () => {
      expect(rejection(() => router.match('GET', '/rest/v2/nothing', 'config')).status).to.equal(404);
    });

    it('a known method without a route on that path answers 405 "Not allowed"', () => {
      const err = rejection(() => router.match('DELETE', '/rest/v2/caches', undefined));
      expect(err.status).to.equal(405);
      expect(err.message).to.equal('Not allowed');
    });

    it('OPTIONS without a route answers 405', () => {
      expect(rejection(() => router.match('OPTIONS', '/rest/v2/caches', undefined)).status).to.equal(405);
    });

    for (const verb of ['PATCH', 'NOT-EXIST', 'TRACE', 'get']) {
      it(`the verb ${verb} answers 403 with a short reason`, () => {
        const err = rejection(() => router.match(verb, '/rest/v2/caches', undefined));
        expect(err.status).to.equal(403);
        expect(err.message).to.equal('Unknown HTTP method');
      });
    }

    it('a malformed escape in the path answers 400', () => {
      expect(rejection(() => router.match('GET', '/rest/v2/caches/%zz', undefined)).status).to.equal(400);
    });
  });

  describe('building the table', () => {
    it('refuses two routes with the same method, path and action', () => {
      expect(() => new Router([route('GET', '/a/:x'), route('GET', '/a/:x')])).to.throw(/duplicate route/);
    });

    it('refuses two parameter names at the same place', () => {
      expect(() => new Router([route('GET', '/a/:x'), route('PUT', '/a/:y')])).to.throw(/clashes/);
    });

    it('refuses a *rest segment that is not the last', () => {
      expect(() => new Router([route('GET', '/static/*file/more')])).to.throw(/must be the last segment/);
    });

    it('accepts the same path with different actions', () => {
      const r = new Router([route('POST', '/c/:n', 'increment'), route('POST', '/c/:n', 'add')]);
      expect(r.match('POST', '/c/x', 'add').params).to.deep.equal({ n: 'x' });
    });
  });

  describe('*rest segments (static content, docs/reference/http.md#routing)', () => {
    const files = route('GET', '/console/*file');
    const page = route('GET', '/console');
    const special = route('GET', '/console/cache/:name');
    const r = new Router([files, page, special]);

    it('take the rest of the path, one segment or more, after literals and parameters', () => {
      expect(r.match('GET', '/console/assets/app.js', undefined)).to.deep.equal({ route: files, params: { file: 'assets/app.js' } });
      expect(r.match('GET', '/console/welcome', undefined).route).to.equal(files);
      expect(r.match('GET', '/console/', undefined).route).to.equal(page);
      expect(r.match('GET', '/console/cache/c1', undefined)).to.deep.equal({ route: special, params: { name: 'c1' } });
      // a literal segment commits to its branch, so the *rest of /console does not take over
      expect(rejection(() => r.match('GET', '/console/cache/c1/more', undefined)).status).to.equal(404);
    });
  });
});
