export { AddressKind, type AddressRefusal, type EmbeddingForm, NEVER_ALLOWED, refusalOf } from './address-policy.js';
export { checkAddresses } from './check-addresses.js';
export { guardedFetch, type GuardedFetchOptions, type GuardedResponse } from './guarded-fetch.js';
export { type Cidr, type IpAddress, parseCidr, parseIpAddress } from './ip-address.js';
export { OutboundError, OutboundErrorCode } from './outbound-error.js';
export { type HostRules, outboundPolicy, outboundPolicyFromEnv, type OutboundPolicy, type OutboundSettings } from './outbound-policy.js';
export { type Resolve, type ResolvedAddress, systemResolve } from './resolve-host.js';
export type { BodyDestination } from './response-body.js';
export { checkTargetUrl, precheckUrl, type TargetUrl } from './target-url.js';
