import type { LookupAddress, LookupOptions } from 'node:dns';
import type { CheckedAnswer } from './resolve-host.js';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect` that answers only the addresses already checked, so nothing can rebind the name
 * between the check and the connection. It answers both forms Node asks for: one address, or all of them (Node
 * asks for all when it races IPv4 and IPv6, `autoSelectFamily`).
 */
export function pinnedLookup(answers: readonly CheckedAnswer[]) {
  return (_hostName: string, options: LookupOptions, callback: LookupCallback): void => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const candidates = answers.filter((answer) => !family || answer.address.version === family);
    if (candidates.length === 0) {
      callback(Object.assign(new Error('no checked address of that family'), { code: 'ENOTFOUND' }), '');
      return;
    }
    if (options.all) callback(null, candidates.map((answer) => ({ address: answer.text, family: answer.address.version })));
    else callback(null, candidates[0]!.text, candidates[0]!.address.version);
  };
}
