import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** What kind of address an IP is, for deciding whether the server may fetch from it. */
export type AddressClass = 'public' | 'unspecified' | 'loopback' | 'private' | 'link-local' | 'unique-local' | 'multicast' | 'reserved' | 'invalid';

type Range = [AddressClass, string, number];

// Ranges a URL given by an agent must never reach (IANA special-purpose registries). Anything not listed is public.
const IPV4_RANGES: Range[] = [
  ['unspecified', '0.0.0.0', 8],
  ['private', '10.0.0.0', 8],
  ['private', '100.64.0.0', 10], // carrier-grade NAT
  ['loopback', '127.0.0.0', 8],
  ['link-local', '169.254.0.0', 16], // includes cloud metadata at 169.254.169.254
  ['private', '172.16.0.0', 12],
  ['reserved', '192.0.0.0', 24],
  ['reserved', '192.0.2.0', 24],
  ['private', '192.168.0.0', 16],
  ['reserved', '198.18.0.0', 15],
  ['reserved', '198.51.100.0', 24],
  ['reserved', '203.0.113.0', 24],
  ['multicast', '224.0.0.0', 4],
  ['reserved', '240.0.0.0', 4], // includes broadcast 255.255.255.255
];
const IPV6_RANGES: Range[] = [
  ['unspecified', '::', 128],
  ['loopback', '::1', 128],
  ['reserved', '::', 96], // IPv4-compatible (deprecated)
  ['reserved', '64:ff9b::', 96], // NAT64: would reach an IPv4 address we did not check
  ['reserved', '64:ff9b:1::', 48],
  ['reserved', '100::', 64],
  ['reserved', '2001:db8::', 32],
  ['reserved', '2002::', 16], // 6to4: embeds an IPv4 address
  ['unique-local', 'fc00::', 7],
  ['link-local', 'fe80::', 10],
  ['private', 'fec0::', 10], // site-local (deprecated)
  ['multicast', 'ff00::', 8],
];

const lists = (ranges: Range[], family: 'ipv4' | 'ipv6') =>
  ranges.map(([kind, network, prefix]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { kind, list };
  });
const IPV4_LISTS = lists(IPV4_RANGES, 'ipv4');
const IPV6_LISTS = lists(IPV6_RANGES, 'ipv6');

/** Classifies an IP address (IPv4, or IPv6 with an IPv4-mapped address classified as that IPv4 address). Pure. */
export function classifyAddress(address: string): AddressClass {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''); // brackets from URLs, zone ids
  if (isIPv4(ip)) return IPV4_LISTS.find(({ list }) => list.check(ip, 'ipv4'))?.kind ?? 'public';
  if (!isIPv6(ip)) return 'invalid';
  const mapped = mappedIpv4(ip);
  if (mapped) return classifyAddress(mapped);
  return IPV6_LISTS.find(({ list }) => list.check(ip, 'ipv6'))?.kind ?? 'public';
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

/** `::ffff:a.b.c.d` or `::ffff:xxxx:yyyy` (any spelling) as `a.b.c.d`; null for other IPv6 addresses. */
function mappedIpv4(ipv6: string): string | null {
  // The URL parser writes every IPv6 address in one canonical compressed form.
  const canonical = new URL(`http://[${ipv6}]/`).hostname.slice(1, -1);
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!match) return null;
  const [high, low] = [parseInt(match[1], 16), parseInt(match[2], 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}
