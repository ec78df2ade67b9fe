import { parsePaymentRequired } from '@x402/core/schemas';
import type { PaymentRequired } from '@x402/core/types';

/** Where a service publishes its paid resources: its x402 discovery document, at the root of its origin. */
export const DISCOVERY_PATH = '/.well-known/x402.json';

/** The part of /.well-known/x402.json that carries each paid resource's challenge. */
interface PublishedResources {
  resources?: Array<{ resource?: unknown; method?: unknown; paymentRequired?: unknown } | null>;
}

/**
 * The challenges a discovery document publishes (each resource's `paymentRequired`, what its 402 would carry), by
 * `METHOD origin/path` for the origin the document was read from: a service behind a proxy may name another public
 * URL than the one the client reaches. Entries that are not x402 v2 challenges are left out: those resources are paid
 * after their 402, as without the document.
 */
export function publishedChallenges(document: unknown, origin: string): Map<string, PaymentRequired> {
  const challenges = new Map<string, PaymentRequired>();
  const resources = (document as PublishedResources | null)?.resources;
  if (!Array.isArray(resources)) return challenges;
  for (const entry of resources) {
    if (typeof entry?.resource !== 'string' || typeof entry.method !== 'string' || !URL.canParse(entry.resource)) continue;
    const parsed = parsePaymentRequired(entry.paymentRequired);
    // Checked, not rewritten: the payment is signed from the challenge exactly as published, as from a 402.
    if (!parsed.success || parsed.data.x402Version !== 2) continue;
    challenges.set(`${entry.method.toUpperCase()} ${origin}${new URL(entry.resource).pathname}`, entry.paymentRequired as PaymentRequired);
  }
  return challenges;
}

/** The challenges `origin` publishes; undefined when its discovery document cannot be read. */
export async function fetchPublishedChallenges(fetch: typeof globalThis.fetch, origin: string): Promise<Map<string, PaymentRequired> | undefined> {
  try {
    const response = await fetch(`${origin}${DISCOVERY_PATH}`, { headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return publishedChallenges(await response.json(), origin);
  } catch {
    return undefined;
  }
}
