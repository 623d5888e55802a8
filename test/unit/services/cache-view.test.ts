import { expect } from 'chai';
import { rmSync } from 'node:fs';
import pino from 'pino';
import { CacheManager } from '../../../src/grid/cache-manager';
import { parseCacheConfig } from '../../../src/model/cache-config';
import { type CacheView, handleOf, viewOf } from '../../../src/services/cache-view';
import { SqliteStore } from '../../../src/store/sqlite-store';
import { systemClock } from '../../../src/util/clock';
import { tempDir } from '../../support/server';

describe('CacheView: what src/http holds of a cache', () => {
  let dir: string;
  let store: SqliteStore;
  let manager: CacheManager;

  beforeEach(async () => {
    dir = tempDir('grid-view-');
    store = new SqliteStore({ dataDir: dir, durability: 'process' });
    manager = new CacheManager({ store, clock: systemClock, log: pino({ level: 'silent' }) });
    await manager.create('c', parseCacheConfig('{"local-cache":{"statistics":true}}', 'json'), { volatile: true });
  });

  afterEach(() => {
    manager.shutdown();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is one object per cache: every lookup answers the same view (nothing made per request)', () => {
    const view = viewOf(manager.require('c'));
    expect(viewOf(manager.require('c'))).to.equal(view);
    expect(handleOf(view)).to.equal(manager.require('c'));
  });

  it('reads the cache as it is now: availability, switches and settings follow their changes', async () => {
    const view = viewOf(manager.require('c'));
    expect(view).to.include({ name: 'c', internal: false, availability: 'AVAILABLE', rebalancing: true });
    await manager.setAvailability(manager.require('c'), 'DEGRADED_MODE');
    await manager.assignAlias('other-name', 'c');
    expect(view.availability).to.equal('DEGRADED_MODE');
    expect(view.settings.aliases).to.deep.equal(['other-name']);
  });

  it('gives no way to the running cache, its data or a field to set', () => {
    const view = viewOf(manager.require('c'));
    expect(Object.keys(view)).to.deep.equal([]);
    expect('cache' in view || 'data' in view || 'definition' in view).to.equal(false);
    expect(() => { (view as { availability: string }).availability = 'AVAILABLE'; }).to.throw(TypeError);
    // the type checker refuses each line of this function (never called): every one must stay an error
    const refused = (): unknown => [
      // @ts-expect-error the running Cache is not on a view
      view.cache,
      // @ts-expect-error nor its entries (the engine seam)
      view.data,
      // @ts-expect-error a view is read, never set
      view.rebalancing = false,
      // @ts-expect-error its settings neither, lists included
      view.settings.aliases.push('x'),
      // @ts-expect-error an object of the same shape is no view
      handleOf({ name: 'c', settings: view.settings, internal: false, availability: 'AVAILABLE', rebalancing: true }),
    ];
    expect(refused).to.be.a('function');
  });

  it('is unforgeable: only a view made by the services leads back to its cache', () => {
    const forged = { name: 'c', settings: {}, internal: false, availability: 'AVAILABLE', rebalancing: true } as unknown as CacheView;
    expect(() => handleOf(forged)).to.throw(TypeError);
  });
});
