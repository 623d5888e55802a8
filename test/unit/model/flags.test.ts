import { expect } from 'chai';
import {
  NO_FLAGS, parseAdminFlags, parseEntryFlags, SKIP_CACHE_LOAD, SKIP_CACHE_STORE, SKIP_LISTENER_NOTIFICATION, SKIP_STATISTICS,
} from '../../../src/model/flags';
import { thrown } from '../../support/thrown';

const rejection = (fn: () => unknown) => thrown(fn);

// Core org.infinispan.context.Flag values accepted on entry operations (docs/reference/data-plane.md#flags).
const ENTRY_FLAGS = [
  'ZERO_LOCK_ACQUISITION_TIMEOUT', 'CACHE_MODE_LOCAL', 'SKIP_LOCKING', 'FORCE_WRITE_LOCK', 'FORCE_ASYNCHRONOUS',
  'FORCE_SYNCHRONOUS', 'SKIP_CACHE_STORE', 'SKIP_CACHE_LOAD', 'FAIL_SILENTLY', 'SKIP_REMOTE_LOOKUP', 'SKIP_INDEXING',
  'PUT_FOR_EXTERNAL_READ', 'PUT_FOR_STATE_TRANSFER', 'PUT_FOR_X_SITE_STATE_TRANSFER', 'SKIP_SHARED_CACHE_STORE',
  'SKIP_OWNERSHIP_CHECK', 'IGNORE_RETURN_VALUES', 'SKIP_XSITE_BACKUP', 'SKIP_LISTENER_NOTIFICATION', 'SKIP_STATISTICS',
  'SKIP_INDEX_CLEANUP', 'COMMAND_RETRY', 'ROLLING_UPGRADE', 'REMOTE_ITERATION', 'SKIP_SIZE_OPTIMIZATION',
  'IGNORE_TRANSACTION', 'IRAC_UPDATE', 'IRAC_STATE', 'ALREADY_HAS_LOCK', 'BACKUP_WRITE',
];

describe('parseEntryFlags: the flags header of entry operations (docs/reference/data-plane.md#flags)', () => {
  it('is empty when the header is absent or empty', () => {
    expect(parseEntryFlags(undefined)).to.equal(NO_FLAGS);
    expect(parseEntryFlags('')).to.equal(NO_FLAGS);
  });

  it('accepts every core Flag name', () => {
    for (const flag of ENTRY_FLAGS) expect(() => parseEntryFlags(flag), flag).not.to.throw();
  });

  it('gives each applied flag its own bit, and the others none', () => {
    const applied = [SKIP_CACHE_STORE, SKIP_CACHE_LOAD, SKIP_STATISTICS, SKIP_LISTENER_NOTIFICATION];
    expect(applied.map((_, i) => parseEntryFlags(['SKIP_CACHE_STORE', 'SKIP_CACHE_LOAD', 'SKIP_STATISTICS', 'SKIP_LISTENER_NOTIFICATION'][i])))
      .to.deep.equal(applied);
    expect(new Set(applied).size).to.equal(4);
    expect(parseEntryFlags('SKIP_LOCKING')).to.equal(NO_FLAGS);
  });

  it('reads a comma-separated list', () => {
    expect(parseEntryFlags('SKIP_CACHE_LOAD,IGNORE_RETURN_VALUES,SKIP_STATISTICS')).to.equal(SKIP_CACHE_LOAD | SKIP_STATISTICS);
  });

  it('answers 400 "No enum constant org.infinispan.context.Flag.X" for an unknown name', () => {
    const err = rejection(() => parseEntryFlags('Invalid'));
    expect(err.status).to.equal(400);
    expect(err.code).to.equal('INVALID_FLAG');
    expect(err.message).to.equal('No enum constant org.infinispan.context.Flag.Invalid');
  });

  it('is case-sensitive', () => {
    expect(rejection(() => parseEntryFlags('skip_cache_load')).message).to.equal('No enum constant org.infinispan.context.Flag.skip_cache_load');
  });

  it('does not trim: a space after the comma is part of the name', () => {
    expect(rejection(() => parseEntryFlags('SKIP_CACHE_LOAD, IGNORE_RETURN_VALUES')).message)
      .to.equal('No enum constant org.infinispan.context.Flag. IGNORE_RETURN_VALUES');
  });

  it('rejects the whole header when one name is unknown', () => {
    expect(rejection(() => parseEntryFlags('SKIP_LOCKING,NOPE')).message).to.equal('No enum constant org.infinispan.context.Flag.NOPE');
  });
});

describe('parseAdminFlags: the flags header of cache create/update (docs/reference/data-plane.md#flags)', () => {
  it('accepts VOLATILE and UPDATE', () => {
    expect([...parseAdminFlags('VOLATILE')]).to.deep.equal(['VOLATILE']);
    expect([...parseAdminFlags('UPDATE')]).to.deep.equal(['UPDATE']);
    expect([...parseAdminFlags('VOLATILE,UPDATE')]).to.deep.equal(['VOLATILE', 'UPDATE']);
  });

  it('is empty when the header is absent', () => {
    expect(parseAdminFlags(undefined).size).to.equal(0);
  });

  it('answers 400 naming the AdminFlag enum for an unknown name', () => {
    const err = rejection(() => parseAdminFlags('PERMANENT'));
    expect(err.status).to.equal(400);
    expect(err.message).to.equal('No enum constant org.infinispan.commons.api.CacheContainerAdmin.AdminFlag.PERMANENT');
  });

  it('is case-sensitive', () => {
    expect(rejection(() => parseAdminFlags('volatile')).status).to.equal(400);
  });

  it('rejects flags joined with a space, as the Java client sends them', () => {
    expect(rejection(() => parseAdminFlags('VOLATILE UPDATE')).status).to.equal(400);
  });

  it('rejects entry flags', () => {
    expect(rejection(() => parseAdminFlags('SKIP_LOCKING')).status).to.equal(400);
  });
});
