import { expect } from 'chai';
import { clientAddressKey } from '../../../src/model/client-address';

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
