import { isIPv6 } from 'node:net';

/**
 * The key failed logins are counted under for one client: its IPv4 address, or the /64 prefix of
 * an IPv6 one (one host usually has a whole /64 to pick addresses from). IPv4-mapped IPv6
 * addresses count as IPv4.
 */
export function clientAddressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/**
 * The groups one client belongs to, widest first: an IPv4 address alone; for IPv6 its /48 (a
 * site), /56 (a home or small site) and /64 (a host), since whoever holds one address of a prefix
 * can usually use all of it. The last is `clientAddressKey`.
 */
export function clientAddressPrefixes(address: string | undefined): string[] {
  const key = clientAddressKey(address);
  if (!key.endsWith('::/64')) return [key];
  const groups = key.slice(0, -'::/64'.length).split(':');
  const at56 = (parseInt(groups[3], 16) & 0xff00).toString(16);
  return [`${groups.slice(0, 3).join(':')}::/48`, `${groups.slice(0, 3).join(':')}:${at56}::/56`, key];
}

function expandIPv6(address: string): string[] {
  const [head, tail] = address.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0');
  return [...left, ...fill, ...right].map((g) => (g.includes('.') ? g : parseInt(g, 16).toString(16)));
}
