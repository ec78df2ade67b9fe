import { embeddedIpv4 } from './address-policy.js';
import { type Cidr, cidrContains, type IpAddress, parseCidr } from './ip-address.js';

/** Host names, name suffixes and address blocks of one list of the operator's settings. */
export interface HostRules {
  names: ReadonlySet<string>;
  /** `.example.com`: the name itself and every name under it. */
  suffixes: readonly string[];
  blocks: readonly Cidr[];
}

/**
 * The operator's exceptions to the address policy. The allow-list opens hosts and blocks the policy refuses (an
 * internal webhook receiver, the tests' local servers) but never cloud metadata or the unspecified address; the
 * deny-list refuses more, and wins over the allow-list. Nothing turns the guard off.
 */
export interface OutboundPolicy {
  allowHosts: HostRules;
  denyHosts: HostRules;
  /** Ports allowed besides the scheme's default (80 for http, 443 for https). */
  allowPorts: ReadonlySet<number>;
}

export interface OutboundSettings {
  allowHosts?: readonly string[];
  denyHosts?: readonly string[];
  allowPorts?: readonly (number | string)[];
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** A host name as the rules compare it: lower case, without the root's trailing dot. */
export const normaliseHostName = (name: string) => name.toLowerCase().replace(/\.$/, '');

function parseHostRules(entries: readonly string[], setting: string, { isAllowList }: { isAllowList: boolean }): HostRules {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const blocks: Cidr[] = [];
  for (const raw of entries) {
    const entry = normaliseHostName(raw.trim());
    if (entry === '') continue;
    const block = parseCidr(entry);
    if (block) {
      if (isAllowList && block.prefix === 0) throw new Error(`${setting}: "${raw}" would allow every address; list the blocks to allow`);
      blocks.push(block);
      continue;
    }
    const suffix = entry.replace(/^\*\./, '.');
    if (suffix.startsWith('.') && HOST_NAME.test(suffix.slice(1))) suffixes.push(suffix);
    else if (HOST_NAME.test(entry)) names.add(entry);
    else throw new Error(`${setting}: "${raw}" is neither a host name, a suffix like .example.com, nor an address block like 10.0.0.0/8`);
  }
  return { names, suffixes, blocks };
}

function parsePort(raw: number | string, setting: string): number {
  const port = typeof raw === 'number' ? raw : /^\d{1,5}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${setting}: "${raw}" is not a port (1-65535)`);
  return port;
}

/** The policy from settings; throws on an entry it cannot read, so a typo stops the service at start-up. */
export function outboundPolicy(settings: OutboundSettings = {}): OutboundPolicy {
  return {
    allowHosts: parseHostRules(settings.allowHosts ?? [], 'OUTBOUND_ALLOW_HOSTS', { isAllowList: true }),
    denyHosts: parseHostRules(settings.denyHosts ?? [], 'OUTBOUND_DENY_HOSTS', { isAllowList: false }),
    allowPorts: new Set((settings.allowPorts ?? []).map((port) => parsePort(port, 'OUTBOUND_ALLOW_PORTS'))),
  };
}

const listOf = (value: string | undefined) => (value ?? '').split(/[\s,]+/).filter((entry) => entry !== '');

/** The policy from `OUTBOUND_ALLOW_HOSTS`, `OUTBOUND_DENY_HOSTS` and `OUTBOUND_ALLOW_PORTS` (comma- or space-separated). */
export function outboundPolicyFromEnv(env: Record<string, string | undefined>): OutboundPolicy {
  return outboundPolicy({
    allowHosts: listOf(env.OUTBOUND_ALLOW_HOSTS),
    denyHosts: listOf(env.OUTBOUND_DENY_HOSTS),
    allowPorts: listOf(env.OUTBOUND_ALLOW_PORTS),
  });
}

/** Whether a host name (not an address) is listed, by name or suffix. */
export function listsName(rules: HostRules, hostName: string): boolean {
  const name = normaliseHostName(hostName);
  return rules.names.has(name) || rules.suffixes.some((suffix) => name === suffix.slice(1) || name.endsWith(suffix));
}

/** Whether an address is listed, itself or as the IPv4 address it carries (`::ffff:10.0.0.1` is 10.0.0.1 here too). */
export function listsAddress(rules: HostRules, address: IpAddress): boolean {
  const ipv4 = embeddedIpv4(address);
  return rules.blocks.some((block) => cidrContains(block, address) || (ipv4 !== undefined && cidrContains(block, ipv4)));
}
