import type { PaymentRequired } from '@x402/core/types';

/** A 402 challenge as it is answered: the PaymentRequired object (the body) and the headers carrying it. */
export interface OfferedChallenge {
  readonly challenge: Readonly<PaymentRequired>;
  readonly headers: Readonly<Record<string, string>>;
}

/** A kept challenge, with its body already serialised: every answer sends the same JSON text. */
export interface CachedChallenge extends OfferedChallenge {
  readonly body: string;
  /** When it was built (ms since the epoch): a challenge with signed offers is rebuilt before they expire. */
  readonly builtAt: number;
}

/**
 * Challenges already built and serialised, by route, price and resource URL: `@x402/core` builds and
 * base64-encodes one per unpaid request, the most frequent request a paid route gets. Entries are frozen (shared by every answer) and
 * their number is bounded: the resource URL follows the request's Host header when no public base URL is set,
 * so a client could otherwise grow the cache one spelling at a time. Only built challenges are kept, never a
 * failure to build one. With `maxAgeMs`, an entry older than that is built again.
 */
export class ChallengeCache {
  private readonly entries = new Map<string, CachedChallenge>();

  constructor(
    private readonly capacity = 256,
    private readonly maxAgeMs = Number.POSITIVE_INFINITY,
  ) {}

  async get(key: string, build: () => Promise<OfferedChallenge | undefined>): Promise<CachedChallenge | undefined> {
    const cached = this.entries.get(key);
    if (cached && Date.now() - cached.builtAt < this.maxAgeMs) return cached;
    this.entries.delete(key);
    const built = await build();
    if (!built) return undefined;
    // The oldest entry makes room: Maps iterate in insertion order.
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    const frozen: CachedChallenge = deepFreeze({ challenge: built.challenge, headers: built.headers, body: JSON.stringify(built.challenge), builtAt: Date.now() });
    this.entries.set(key, frozen);
    return frozen;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
