import { expect } from 'chai';
import { parseClusterNodes, stateOf } from '../../../../src/store/redis/cluster-topology';

// `CLUSTER NODES` as Redis 7.0 writes it: id, ip:port@cport[,hostname], flags, master, ping, pong, epoch, link, slots
const A = 'aaaa';
const B = 'bbbb';
const C = 'cccc';
const healthy = [
  `${A} 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460`,
  `${B} 127.0.0.1:7001@17001 master - 0 1700000000000 2 connected 5461-10922`,
  `${C} 127.0.0.1:7002@17002,host-c master - 0 1700000000000 3 connected 10923-16383`,
  `r1 127.0.0.1:7004@17004 slave ${A} 0 1700000000000 1 connected`,
  `r2 127.0.0.1:7003@17003 slave ${A} 0 1700000000000 1 connected`,
  `r3 127.0.0.1:7005@17005 slave,fail ${B} 0 1700000000000 2 disconnected`,
].join('\n');

describe('the cluster topology from CLUSTER NODES', () => {
  it('names the master and the live replicas of each slot by address, in address order', () => {
    const t = parseClusterNodes(healthy);
    expect(t.owners(0)).to.deep.equal({ master: { id: A, address: '127.0.0.1:7000' }, replicas: [{ id: 'r2', address: '127.0.0.1:7003' }, { id: 'r1', address: '127.0.0.1:7004' }] });
    expect(t.owners(5461)).to.deep.equal({ master: { id: B, address: '127.0.0.1:7001' }, replicas: [] });
    expect(t.owners(16383)!.master.address).to.equal('127.0.0.1:7002');
    expect(t.masters.map((m) => m.address)).to.deep.equal(['127.0.0.1:7000', '127.0.0.1:7001', '127.0.0.1:7002']);
    expect(stateOf(t)).to.deep.equal({ status: 'HEALTHY', reason: '' });
  });

  it('is rebalancing while a master moves a slot away, as its own line or another master\'s says', () => {
    const moving = healthy.replace('connected 0-5460', 'connected 0-5460 [42->-bbbb]');
    const t = parseClusterNodes(moving);
    expect(t.migrating(42)).to.equal(true);
    expect(t.migrating(43)).to.equal(false);
    expect(t.owners(42)!.master.id).to.equal(A);
    expect(stateOf(t)).to.deep.equal({ status: 'HEALTHY_REBALANCING', reason: '1 slots are being moved between masters' });
    const told = parseClusterNodes(healthy, [`${B} 127.0.0.1:7001@17001 myself,master - 0 0 2 connected 5461-10922 [6000->-cccc] [7000-<-aaaa]`]);
    expect([told.migrating(6000), told.migrating(7000)]).to.deep.equal([true, false]);
  });

  it('is degraded while a failed master\'s slots have no master, and not for one node\'s doubt (fail?)', () => {
    const failed = parseClusterNodes(healthy.replace(`${B} 127.0.0.1:7001@17001 master`, `${B} 127.0.0.1:7001@17001 master,fail`));
    expect(failed.owners(5461)).to.equal(undefined);
    expect(failed.uncovered).to.equal(10922 - 5461 + 1);
    expect(stateOf(failed)).to.deep.equal({ status: 'DEGRADED', reason: '5462 of 16384 slots have no reachable master' });
    const doubted = parseClusterNodes(healthy.replace(`${B} 127.0.0.1:7001@17001 master`, `${B} 127.0.0.1:7001@17001 master,fail?`));
    expect(stateOf(doubted).status).to.equal('HEALTHY');
    const unassigned = parseClusterNodes(healthy.replace(' 10923-16383', ''));
    expect(unassigned.uncovered).to.equal(16384 - 10923);
    expect(unassigned.masters).to.have.length(2);
  });
});
