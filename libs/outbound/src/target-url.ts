import { checkAddresses } from './check-addresses.js';
import { type IpAddress, parseIpAddress } from './ip-address.js';
import { OutboundError, OutboundErrorCode } from './outbound-error.js';
import { listsName, normaliseHostName, type OutboundPolicy } from './outbound-policy.js';

/** A URL that passed the URL rules, with what the address checks need. */
export interface TargetUrl {
  url: URL;
  /** Host name, lower case, without brackets or the trailing dot; for an address, its normalised text. */
  host: string;
  /** Set when the URL names an address, not a name: the WHATWG parser has already normalised `0x7f000001`, `127.1`. */
  address?: IpAddress;
  port: number;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * Applies the URL rules to `text` (resolved against `base` for a redirect's Location): http or https only, no
 * credentials, the scheme's default port unless the operator allows another, no deny-listed name. `subject` opens
 * the messages ("The URL", "A redirect").
 */
export function checkTargetUrl(text: string, policy: OutboundPolicy, { base, subject = 'The URL' }: { base?: URL; subject?: string } = {}): TargetUrl {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new OutboundError(OutboundErrorCode.InvalidUrl, `${subject} is not a valid absolute URL`);
  }
  const defaultPort = DEFAULT_PORTS[url.protocol];
  if (defaultPort === undefined) throw new OutboundError(OutboundErrorCode.RefusedScheme, `${subject} uses ${url.protocol.replace(/:$/, '')}: only http and https are allowed`);
  if (url.username !== '' || url.password !== '') throw new OutboundError(OutboundErrorCode.RefusedCredentials, `${subject} carries credentials: send them as headers, not in the URL`);
  const port = url.port === '' ? defaultPort : Number(url.port);
  if (port !== defaultPort && !policy.allowPorts.has(port)) throw new OutboundError(OutboundErrorCode.RefusedPort, `${subject} uses port ${port}: only the scheme's default port is allowed`);
  const host = normaliseHostName(url.hostname.replace(/^\[(.*)\]$/, '$1'));
  if (host === '') throw new OutboundError(OutboundErrorCode.InvalidUrl, `${subject} has no host`);
  const address = parseIpAddress(host);
  if (!address && listsName(policy.denyHosts, host)) throw new OutboundError(OutboundErrorCode.RefusedHost, `${subject} names a host this service may not reach`);
  url.hash = '';
  return { url, host, address, port };
}

/**
 * The checks that need no network, for a URL a request carries (a source URL, a webhook URL): the URL rules, and the
 * address rules when the URL names an address. Run when the request arrives, so a URL that can never be fetched is
 * refused before anything is charged; `guardedFetch` checks everything again, names included, when it connects.
 */
export function precheckUrl(text: string, policy: OutboundPolicy, subject = 'The URL'): URL {
  const target = checkTargetUrl(text, policy, { subject });
  if (target.address) checkAddresses(target.host, [target.address], policy, { isLiteral: true, subject });
  return target.url;
}
