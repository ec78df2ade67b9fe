/** An IP address as a number: 32 bits for IPv4, 128 for IPv6. */
export interface IpAddress {
  version: 4 | 6;
  value: bigint;
}

/** An address block: the addresses whose first `prefix` bits equal the base's. */
export interface Cidr {
  version: 4 | 6;
  base: bigint;
  prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

/**
 * Dotted-decimal IPv4 only (`a.b.c.d`, each 0–255, no leading zeros): the resolver and the WHATWG URL parser
 * both give this form, so a shorter or octal/hex notation reaching here is not an address, not a guess.
 */
function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIpv6(text: string): bigint | undefined {
  let body = text;
  // A dotted IPv4 tail (`::ffff:1.2.3.4`) stands for the last two groups.
  let tail: bigint | undefined;
  const lastColon = body.lastIndexOf(':');
  if (body.includes('.', lastColon)) {
    tail = parseIpv4(body.slice(lastColon + 1));
    if (tail === undefined) return undefined;
    body = `${body.slice(0, lastColon + 1)}${(tail >> 16n).toString(16)}:${(tail & 0xffffn).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0]!);
  const rest = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined;
    value = (value << 16n) | BigInt(`0x${group}`);
  }
  return value;
}

/** Parses an IPv4 or IPv6 address (brackets and a zone `%eth0` are dropped); undefined when it is not one. */
export function parseIpAddress(text: string): IpAddress | undefined {
  const bare = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (bare.includes(':')) {
    const value = parseIpv6(bare);
    return value === undefined ? undefined : { version: 6, value };
  }
  const value = parseIpv4(bare);
  return value === undefined ? undefined : { version: 4, value };
}

/** Parses `address/prefix` (or a lone address, a block of one); undefined when it is not one. */
export function parseCidr(text: string): Cidr | undefined {
  const [addressText, prefixText, ...extra] = text.split('/');
  if (extra.length > 0 || addressText === undefined) return undefined;
  const address = parseIpAddress(addressText);
  if (!address) return undefined;
  const bits = BITS[address.version];
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  return { version: address.version, base: address.value & maskOf(bits, prefix), prefix };
}

/** A CIDR from a literal the code itself writes: a typo is a programming error, so it throws. */
export function cidr(text: string): Cidr {
  const block = parseCidr(text);
  if (!block) throw new Error(`Not a CIDR: ${text}`);
  return block;
}

function maskOf(bits: number, prefix: number): bigint {
  return ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix);
}

export function cidrContains(block: Cidr, address: IpAddress): boolean {
  return block.version === address.version && (address.value & maskOf(BITS[block.version], block.prefix)) === block.base;
}

export function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => ((value >> shift) & 0xffn).toString()).join('.');
}
