import { NEVER_ALLOWED, refusalOf } from './address-policy.js';
import type { IpAddress } from './ip-address.js';
import { OutboundError, OutboundErrorCode } from './outbound-error.js';
import { listsAddress, listsName, type OutboundPolicy } from './outbound-policy.js';

const KIND_WORDS: Record<string, string> = {
  link_local: 'link-local',
  shared: 'carrier-grade NAT',
  metadata: 'cloud metadata',
};

/**
 * Refuses the hop unless every address `host` resolves to (or the address it names) is a destination the policy
 * allows: one refused answer refuses them all, since the connection could go to any. The message names the kind of
 * address, never the address.
 */
export function checkAddresses(host: string, addresses: readonly IpAddress[], policy: OutboundPolicy, { isLiteral, subject }: { isLiteral: boolean; subject: string }): void {
  const verb = isLiteral ? 'is' : 'resolves to';
  if (addresses.length === 0) throw new OutboundError(OutboundErrorCode.Unreachable, `${subject}'s host does not resolve`);
  const hostAllowed = !isLiteral && listsName(policy.allowHosts, host);
  for (const address of addresses) {
    if (listsAddress(policy.denyHosts, address)) throw new OutboundError(OutboundErrorCode.RefusedAddress, `${subject}'s host ${verb} an address this service may not reach`);
    const refusal = refusalOf(address);
    if (!refusal) continue;
    if (!NEVER_ALLOWED.has(refusal.kind) && (hostAllowed || listsAddress(policy.allowHosts, address))) continue;
    const kind = KIND_WORDS[refusal.kind] ?? refusal.kind;
    const article = /^[aeiou]/.test(kind) ? 'an' : 'a';
    throw new OutboundError(OutboundErrorCode.RefusedAddress, `${subject}'s host ${verb} ${article} ${kind} address, which this service may not reach`);
  }
}
