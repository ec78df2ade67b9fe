import { promises as dns } from 'node:dns';
import { type IpAddress, parseIpAddress } from './ip-address.js';
import { OutboundError, OutboundErrorCode } from './outbound-error.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to. Tests inject one that answers what they need. */
export type Resolve = (hostName: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (getaddrinfo, /etc/hosts included), every answer in its order. */
export const systemResolve: Resolve = (hostName) => dns.lookup(hostName, { all: true, verbatim: true });

/** An answer and the parsed address the checks judged: the connection goes to exactly this text. */
export interface CheckedAnswer {
  text: string;
  address: IpAddress;
}

/** Resolves once; a name that does not resolve is unreachable, and an answer that is no address is refused with it. */
export async function resolveHost(resolve: Resolve, hostName: string, subject: string): Promise<CheckedAnswer[]> {
  let answers: readonly ResolvedAddress[];
  try {
    answers = await resolve(hostName);
  } catch {
    throw new OutboundError(OutboundErrorCode.Unreachable, `${subject}'s host does not resolve`);
  }
  return answers.map(({ address: text }) => {
    const address = parseIpAddress(text);
    if (!address) throw new OutboundError(OutboundErrorCode.Unreachable, `${subject}'s host does not resolve to an address`);
    return { text: text.replace(/%.*$/, ''), address };
  });
}
