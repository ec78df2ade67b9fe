import { cidr, type Cidr, cidrContains, type IpAddress } from './ip-address.js';

/** Why an address is not a public destination. */
export enum AddressKind {
  Loopback = 'loopback',
  Private = 'private',
  LinkLocal = 'link_local',
  /** Carrier-grade NAT space (100.64.0.0/10): the provider's network, not the internet. */
  Shared = 'shared',
  Multicast = 'multicast',
  Broadcast = 'broadcast',
  Unspecified = 'unspecified',
  Documentation = 'documentation',
  Benchmarking = 'benchmarking',
  Reserved = 'reserved',
  /** A cloud provider's instance metadata or platform service: credentials live there. */
  Metadata = 'metadata',
}

/** How an IPv6 address carries the IPv4 address it was judged by. */
export type EmbeddingForm = 'ipv4_mapped' | 'ipv4_translated' | 'ipv4_compatible' | 'nat64' | '6to4' | 'teredo';

export interface AddressRefusal {
  kind: AddressKind;
  /** Set when an IPv6 address was refused for the IPv4 address inside it. */
  embeddedIn?: EmbeddingForm;
}

/** Kinds no allow-list entry can open: nothing legitimate lives there, and the metadata services hold credentials. */
export const NEVER_ALLOWED: ReadonlySet<AddressKind> = new Set([AddressKind.Metadata, AddressKind.Unspecified]);

type Range = readonly [block: Cidr, kind: AddressKind];
const range = (text: string, kind: AddressKind): Range => [cidr(text), kind];

// First match wins: the narrow blocks (metadata, unspecified, broadcast) come before the blocks holding them.
const IPV4_RANGES: readonly Range[] = [
  // AWS, GCP, Azure, OpenStack and others; AWS ECS task metadata; EKS pod identity; Tencent; Alibaba; Azure
  // WireServer (a public-looking address); Oracle Cloud.
  ...['169.254.169.254', '169.254.170.2', '169.254.170.23', '169.254.0.23', '100.100.100.200', '168.63.129.16', '192.0.0.192'].map((text) =>
    range(text, AddressKind.Metadata),
  ),
  range('0.0.0.0/32', AddressKind.Unspecified),
  range('255.255.255.255/32', AddressKind.Broadcast),
  range('0.0.0.0/8', AddressKind.Reserved),
  range('10.0.0.0/8', AddressKind.Private),
  range('100.64.0.0/10', AddressKind.Shared),
  range('127.0.0.0/8', AddressKind.Loopback),
  range('169.254.0.0/16', AddressKind.LinkLocal),
  range('172.16.0.0/12', AddressKind.Private),
  range('192.0.0.0/24', AddressKind.Reserved),
  range('192.0.2.0/24', AddressKind.Documentation),
  range('192.88.99.0/24', AddressKind.Reserved),
  range('192.168.0.0/16', AddressKind.Private),
  range('198.18.0.0/15', AddressKind.Benchmarking),
  range('198.51.100.0/24', AddressKind.Documentation),
  range('203.0.113.0/24', AddressKind.Documentation),
  range('224.0.0.0/4', AddressKind.Multicast),
  range('240.0.0.0/4', AddressKind.Reserved),
];

// Judged before the IPv4-carrying forms (`::` and `::1` lie in the IPv4-compatible block).
const IPV6_ADDRESSES: readonly Range[] = [
  // AWS instance metadata and EKS pod identity over IPv6.
  range('fd00:ec2::254/128', AddressKind.Metadata),
  range('fd00:ec2::23/128', AddressKind.Metadata),
  range('::/128', AddressKind.Unspecified),
  range('::1/128', AddressKind.Loopback),
];

// Judged after them (Teredo lies in 2001::/23).
const IPV6_RANGES: readonly Range[] = [
  // Local-use NAT64 (RFC 8215) translates into the operator's own network, at a prefix length we cannot know.
  range('64:ff9b:1::/48', AddressKind.Private),
  range('100::/64', AddressKind.Reserved),
  range('2001:db8::/32', AddressKind.Documentation),
  range('2001:2::/48', AddressKind.Benchmarking),
  range('2001::/23', AddressKind.Reserved),
  range('3fff::/20', AddressKind.Documentation),
  range('5f00::/16', AddressKind.Reserved),
  range('fc00::/7', AddressKind.Private),
  range('fe80::/10', AddressKind.LinkLocal),
  range('fec0::/10', AddressKind.Private),
  range('ff00::/8', AddressKind.Multicast),
];

const GLOBAL_UNICAST_V6 = cidr('2000::/3');

interface Embedding {
  block: Cidr;
  form: EmbeddingForm;
  ipv4: (value: bigint) => bigint;
  /** Whether the form is a route of its own to a public IPv4 address, or refused whatever it carries. */
  usable: boolean;
}

const LOW_32 = (value: bigint) => value & 0xffffffffn;

const EMBEDDINGS: readonly Embedding[] = [
  { block: cidr('::ffff:0:0/96'), form: 'ipv4_mapped', ipv4: LOW_32, usable: true },
  { block: cidr('::ffff:0:0:0/96'), form: 'ipv4_translated', ipv4: LOW_32, usable: false },
  { block: cidr('64:ff9b::/96'), form: 'nat64', ipv4: LOW_32, usable: true },
  // Teredo: the client's IPv4 address is the last 32 bits, inverted.
  { block: cidr('2001::/32'), form: 'teredo', ipv4: (value) => LOW_32(value) ^ 0xffffffffn, usable: true },
  { block: cidr('2002::/16'), form: '6to4', ipv4: (value) => (value >> 80n) & 0xffffffffn, usable: true },
  // Deprecated (RFC 4291): `::a.b.c.d`.
  { block: cidr('::/96'), form: 'ipv4_compatible', ipv4: LOW_32, usable: false },
];

/** The IPv4 address an IPv6 address carries (mapped, NAT64, 6to4, Teredo, …), if it carries one. */
export function embeddedIpv4(address: IpAddress): IpAddress | undefined {
  if (address.version === 4) return undefined;
  const embedding = EMBEDDINGS.find(({ block }) => cidrContains(block, address));
  return embedding && { version: 4, value: embedding.ipv4(address.value) };
}

function classifyIpv4(value: bigint): AddressKind | undefined {
  return IPV4_RANGES.find(([block]) => cidrContains(block, { version: 4, value }))?.[1];
}

/**
 * Whether an address may be the destination of an outbound request made for a caller: undefined when it is a public
 * unicast address, else why not. IPv6 forms that carry an IPv4 address are judged by that address.
 */
export function refusalOf(address: IpAddress): AddressRefusal | undefined {
  if (address.version === 4) {
    const kind = classifyIpv4(address.value);
    return kind ? { kind } : undefined;
  }
  const exact = IPV6_ADDRESSES.find(([block]) => cidrContains(block, address));
  if (exact) return { kind: exact[1] };
  const embedding = EMBEDDINGS.find(({ block }) => cidrContains(block, address));
  if (embedding) {
    const kind = classifyIpv4(embedding.ipv4(address.value));
    if (kind) return { kind, embeddedIn: embedding.form };
    return embedding.usable ? undefined : { kind: AddressKind.Reserved, embeddedIn: embedding.form };
  }
  const block = IPV6_RANGES.find(([candidate]) => cidrContains(candidate, address));
  if (block) return { kind: block[1] };
  return cidrContains(GLOBAL_UNICAST_V6, address) ? undefined : { kind: AddressKind.Reserved };
}
