import { describe, expect, it } from 'vitest';
import { AddressKind, type EmbeddingForm, refusalOf } from '../src/address-policy.js';
import { parseIpAddress } from '../src/ip-address.js';

const judge = (text: string) => {
  const address = parseIpAddress(text);
  if (!address) throw new Error(`test address does not parse: ${text}`);
  return refusalOf(address);
};

describe('refusalOf', () => {
  const refused: Array<[address: string, kind: AddressKind, embeddedIn?: EmbeddingForm]> = [
    ['127.0.0.1', AddressKind.Loopback],
    ['127.255.255.254', AddressKind.Loopback],
    ['10.0.0.1', AddressKind.Private],
    ['172.16.0.1', AddressKind.Private],
    ['172.31.255.255', AddressKind.Private],
    ['192.168.1.1', AddressKind.Private],
    ['169.254.1.1', AddressKind.LinkLocal],
    ['100.64.0.1', AddressKind.Shared],
    ['100.127.255.255', AddressKind.Shared],
    ['224.0.0.1', AddressKind.Multicast],
    ['239.255.255.250', AddressKind.Multicast],
    ['255.255.255.255', AddressKind.Broadcast],
    ['0.0.0.0', AddressKind.Unspecified],
    ['0.1.2.3', AddressKind.Reserved],
    ['240.0.0.1', AddressKind.Reserved],
    ['192.0.0.9', AddressKind.Reserved],
    ['192.88.99.1', AddressKind.Reserved],
    ['192.0.2.1', AddressKind.Documentation],
    ['198.51.100.1', AddressKind.Documentation],
    ['203.0.113.1', AddressKind.Documentation],
    ['198.18.0.1', AddressKind.Benchmarking],
    ['198.19.255.255', AddressKind.Benchmarking],
    ['169.254.169.254', AddressKind.Metadata],
    ['169.254.170.2', AddressKind.Metadata],
    ['100.100.100.200', AddressKind.Metadata],
    ['168.63.129.16', AddressKind.Metadata],
    ['192.0.0.192', AddressKind.Metadata],
    ['::', AddressKind.Unspecified],
    ['::1', AddressKind.Loopback],
    ['fc00::1', AddressKind.Private],
    ['fd12:3456::1', AddressKind.Private],
    ['fd00:ec2::254', AddressKind.Metadata],
    ['fe80::1', AddressKind.LinkLocal],
    ['fe80::1%eth0', AddressKind.LinkLocal],
    ['fec0::1', AddressKind.Private],
    ['ff02::1', AddressKind.Multicast],
    ['2001:db8::1', AddressKind.Documentation],
    ['3fff::1', AddressKind.Documentation],
    ['2001:2::1', AddressKind.Benchmarking],
    ['2001:10::1', AddressKind.Reserved],
    ['100::1', AddressKind.Reserved],
    ['64:ff9b:1::a00:1', AddressKind.Private],
    ['4000::1', AddressKind.Reserved],
    ['::ffff:127.0.0.1', AddressKind.Loopback, 'ipv4_mapped'],
    ['::ffff:7f00:1', AddressKind.Loopback, 'ipv4_mapped'],
    ['::ffff:10.1.2.3', AddressKind.Private, 'ipv4_mapped'],
    ['::ffff:169.254.169.254', AddressKind.Metadata, 'ipv4_mapped'],
    ['::ffff:0.0.0.0', AddressKind.Unspecified, 'ipv4_mapped'],
    ['::ffff:0:127.0.0.1', AddressKind.Loopback, 'ipv4_translated'],
    ['::127.0.0.1', AddressKind.Loopback, 'ipv4_compatible'],
    ['::10.0.0.1', AddressKind.Private, 'ipv4_compatible'],
    ['::8.8.8.8', AddressKind.Reserved, 'ipv4_compatible'],
    ['64:ff9b::127.0.0.1', AddressKind.Loopback, 'nat64'],
    ['64:ff9b::a9fe:a9fe', AddressKind.Metadata, 'nat64'],
    ['64:ff9b::192.168.0.1', AddressKind.Private, 'nat64'],
    ['2002:7f00:1::', AddressKind.Loopback, '6to4'],
    ['2002:a00:1:1::1', AddressKind.Private, '6to4'],
    ['2002:a9fe:a9fe::', AddressKind.Metadata, '6to4'],
    // Teredo: the client's address inverted in the last 32 bits (127.0.0.1 is 80ff:fffe, 10.0.0.1 is f5ff:fffe).
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', AddressKind.Loopback, 'teredo'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', AddressKind.Private, 'teredo'],
  ];

  it.each(refused)('refuses %s as %s', (address, kind, embeddedIn) => {
    expect(judge(address)).toEqual(embeddedIn ? { kind, embeddedIn } : { kind });
  });

  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.255.255',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    // Teredo carrying 8.8.8.8 (inverted: f7f7:f7f7).
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ];

  it.each(allowed)('allows %s', (address) => {
    expect(judge(address)).toBeUndefined();
  });
});

describe('parseIpAddress', () => {
  it.each([
    ['127.0.0.1', 4, 0x7f000001n],
    ['::1', 6, 1n],
    ['[::1]', 6, 1n],
    ['::ffff:1.2.3.4', 6, 0xffff01020304n],
    ['1:2:3:4:5:6:7:8', 6, 0x00010002000300040005000600070008n],
    ['1::8', 6, 0x00010000000000000000000000000008n],
  ])('reads %s', (text, version, value) => {
    expect(parseIpAddress(text)).toEqual({ version, value });
  });

  // Only the normalised forms are addresses: anything else is a name, and the resolver decides.
  it.each(['0x7f000001', '2130706433', '0177.0.0.1', '127.1', '256.0.0.1', '1.2.3', '1:2:3:4:5:6:7:8:9', '1::2::3', ':::', 'example.com', '12345::'])(
    'does not read %s',
    (text) => {
      expect(parseIpAddress(text)).toBeUndefined();
    },
  );
});
