import type { Resolve, ResolvedAddress } from '../../src/resolve-host.js';

const answer = (address: string): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 });

/** A resolver with fixed answers per name, counting its calls; a name it does not know does not resolve. */
export function fixedResolver(table: Record<string, string[]>): Resolve & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostName: string) => {
    calls.push(hostName);
    const answers = table[hostName];
    if (!answers) throw Object.assign(new Error(`queryA ENOTFOUND ${hostName}`), { code: 'ENOTFOUND' });
    return answers.map(answer);
  };
  return Object.assign(resolve, { calls });
}

/** A resolver whose answer for every name changes after the first lookup: DNS rebinding. */
export function rebindingResolver(first: string, then: string): Resolve & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostName: string) => {
    calls.push(hostName);
    return [answer(calls.length === 1 ? first : then)];
  };
  return Object.assign(resolve, { calls });
}
