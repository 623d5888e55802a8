import { expect } from 'chai';
import { formatCacheConfig, inheritFrom, parseCacheConfig } from '../../../../src/model/cache-config';

function inherit(template: unknown, definition: unknown): unknown {
  const merged = inheritFrom(parseCacheConfig(JSON.stringify(template), 'json'), parseCacheConfig(JSON.stringify(definition), 'json'));
  return JSON.parse(formatCacheConfig(merged, undefined, 'json', false));
}

describe('inheritFrom (configuration="<template>")', () => {
  it('puts the template\'s values beneath the definition\'s own, element by element', () => {
    expect(inherit(
      { 'distributed-cache-configuration': { owners: 3, expiration: { lifespan: 1000, 'max-idle': 500 }, memory: { 'max-count': 10 } } },
      { 'distributed-cache': { configuration: 't', expiration: { lifespan: 2000 } } },
    )).to.deep.equal({
      'distributed-cache': { configuration: 't', owners: '3', expiration: { lifespan: '2000', 'max-idle': '500' }, memory: { 'max-count': '10' } },
    });
  });

  it('leaves out what the definition\'s kind has no place for', () => {
    expect(inherit(
      { 'distributed-cache-configuration': { owners: 3, 'state-transfer': { timeout: 1 }, memory: { 'max-count': 10 } } },
      { 'local-cache': { configuration: 't' } },
    )).to.deep.equal({ 'local-cache': { configuration: 't', memory: { 'max-count': '10' } } });
  });

  it('adds up elements that may repeat, a backup of the same site replacing the template\'s', () => {
    const site = (name: string, strategy: string) => ({ backup: { site: name, strategy } });
    const merged = inherit(
      { 'distributed-cache-configuration': { backups: { NYC: site('NYC', 'SYNC'), LON: site('LON', 'SYNC') } } },
      { 'distributed-cache': { configuration: 't', backups: { LON: site('LON', 'ASYNC'), SFO: site('SFO', 'ASYNC') } } },
    ) as { 'distributed-cache': { backups: Record<string, { backup: { strategy: string } }> } };
    const backups = merged['distributed-cache'].backups;
    expect(Object.keys(backups)).to.have.members(['NYC', 'LON', 'SFO']);
    expect(backups.LON.backup.strategy).to.equal('ASYNC');
  });
});
