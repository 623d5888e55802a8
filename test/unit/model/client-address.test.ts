import { expect } from 'chai';
import { clientAddressKey, clientAddressPrefixes } from '../../../src/model/client-address';

describe('clientAddressKey', () => {
  it('keeps IPv4 addresses and unwraps IPv4-mapped IPv6 ones', () => {
    expect(clientAddressKey('192.0.2.7')).to.equal('192.0.2.7');
    expect(clientAddressKey('::ffff:192.0.2.7')).to.equal('192.0.2.7');
  });

  it('counts IPv6 clients per /64, however the address is written', () => {
    expect(clientAddressKey('2001:db8:1:2:aaaa::1')).to.equal('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).to.equal('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8::1')).to.equal('2001:db8:0:0::/64');
    expect(clientAddressKey('::1')).to.equal('0:0:0:0::/64');
    expect(clientAddressKey('fe80::1%eth0')).to.equal('fe80:0:0:0::/64');
  });

  it('has a key for a missing address', () => {
    expect(clientAddressKey(undefined)).to.equal('unknown');
  });
});

describe('clientAddressPrefixes', () => {
  it('is the address alone for IPv4', () => {
    expect(clientAddressPrefixes('192.0.2.7')).to.deep.equal(['192.0.2.7']);
    expect(clientAddressPrefixes('::ffff:192.0.2.7')).to.deep.equal(['192.0.2.7']);
  });

  it('is the /48, /56 and /64 of an IPv6 address, widest first', () => {
    expect(clientAddressPrefixes('2001:db8:1:2ab:aaaa::1')).to.deep.equal(['2001:db8:1::/48', '2001:db8:1:200::/56', '2001:db8:1:2ab::/64']);
    expect(clientAddressPrefixes('2001:db8:1:2cd::9')).to.deep.equal(['2001:db8:1::/48', '2001:db8:1:200::/56', '2001:db8:1:2cd::/64']);
  });
});
