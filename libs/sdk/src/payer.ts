import { x402Client, x402HTTPClient } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import type { registerExactSvmScheme } from '@x402/svm/exact/client';
import { SpendLimitError } from './errors.js';
import { paymentIdentifierExtension, takePaymentIdentifier } from './payment-identifier.js';
import { fetchPublishedChallenges } from './published-challenges.js';
import { approvingPlanned, checkPlan, describePlan, type SpendPlan } from './spend-plan.js';
import { checkSpend, describeAllowed, formatUsdc, type PaymentRequest, type SpendLimits } from './spend-policy.js';

/** One payment the payer signed. A signed authorization counts as spent: its recipient may settle it. */
export interface SignedPayment {
  at: string;
  network: string;
  asset: string;
  payTo: string;
  /** Atomic units. */
  amount: string;
  resource?: string;
}

/** Where a payer keeps what it spent; in memory unless another store (e.g. a file) is given. */
export interface SpentStore {
  total(): bigint;
  record(payment: SignedPayment): void;
}

export interface PayerOptions extends SpendLimits {
  /** Signs EVM (EIP-3009) payments: any viem account with `address` and `signTypedData`. */
  account: Parameters<typeof toClientEvmSigner>[0];
  /** Signs Solana payments (a `@solana/kit` TransactionSigner); needed when `allow` lists a Solana network. */
  svmSigner?: Parameters<typeof registerExactSvmScheme>[1]['signer'];
  /**
   * Where the Solana client reads the mint and a recent blockhash: the public cluster of the payment's network by
   * default; a local chain (the service's Solana dev chain, see its /.well-known/x402.json) needs its RPC URL here.
   */
  svmRpcUrl?: string;
  /** Asked before each payment that passed the limits; false declines it. */
  approve?: (payment: PaymentRequest & { resource?: string }) => boolean | Promise<boolean>;
  /**
   * Asked once for a plan of payments (e.g. a whole conversion) before its first payment; its payments
   * are then not asked about one by one. Without it, `approve` is asked for each.
   */
  approvePlan?: (plan: SpendPlan) => boolean | Promise<boolean>;
  spent?: SpentStore;
}

export interface Payer {
  /** `fetch` that answers 402 challenges by paying, within the limits. */
  wrap(fetch: typeof globalThis.fetch): typeof globalThis.fetch;
  /**
   * Signs a payment for `challenge` within the limits (and the approval hook), for transports other than HTTP (an MCP
   * tool call's `_meta["x402/payment"]`). `paymentId`: the x402 payment-identifier it carries. A refusal is a
   * SpendLimitError and nothing is signed.
   */
  sign(challenge: PaymentRequired, paymentId: string): Promise<PaymentPayload>;
  /** Atomic units spent so far (as the store counts them). */
  spent(): bigint;
  /** The same payer (same limits, store and reservations) asking another approval hook, e.g. per user session. */
  withApproval(approve: PayerOptions['approve']): Payer;
  /**
   * Checks a plan of payments against the per-payment cap and the budget left before any is made, and
   * asks approval once for all of them; resolves to the payer that makes them. A refusal is a
   * SpendLimitError and nothing is signed.
   */
  commit(plan: SpendPlan): Promise<Payer>;
}

/** What the x402 client reports when no offered network has a registered signer (nothing was signed). */
const NO_SIGNER_FOR_NETWORK = 'No network/scheme registered';

/**
 * A payer on the official x402 client: every payment is checked against the limits (and the
 * approval hook) before it is signed; payments in flight are reserved so concurrent calls cannot
 * overrun the budget together; a refusal is a SpendLimitError and nothing is signed or sent.
 */
export function createPayer(options: PayerOptions): Payer {
  if (!options.svmSigner && options.allow.some(({ network }) => network.startsWith('solana:'))) {
    throw new TypeError('The payer allows a Solana network but has no svmSigner to sign with.');
  }
  const store = options.spent ?? memoryStore();
  let reserved = 0n;
  /**
   * The challenges of each resource, by method and URL without its query: published by the service, or answered to
   * this payer (newer, so kept over a published one). A request with a body to a known resource (a conversion's job
   * fee, a detection) is paid on its first try, so its body crosses the wire once instead of twice.
   */
  const challenges = new Map<string, PaymentRequired>();
  /** Each origin's discovery document, read once for all its resources (again after a failed read). */
  const published = new Map<string, Promise<void>>();
  const learnPublished = (fetch: typeof globalThis.fetch, origin: string): Promise<void> => {
    let learning = published.get(origin);
    if (!learning) {
      learning = fetchPublishedChallenges(fetch, origin).then((found) => {
        if (!found) published.delete(origin);
        for (const [key, challenge] of found ?? []) if (!challenges.has(key)) challenges.set(key, challenge);
      });
      published.set(origin, learning);
    }
    return learning;
  };

  const clientFor = async (approve: PayerOptions['approve'], refusal: { error?: SpendLimitError }, paymentId: string) => {
    let client = registerExactEvmScheme(new x402Client(), { signer: toClientEvmSigner(options.account) }).registerExtension(paymentIdentifierExtension(paymentId));
    if (options.svmSigner) {
      // Loaded only by a payer that signs Solana payments: the Solana client is large, and most payers
      // (and every browser bundle of an EVM-only app) never need it.
      const svm = await import('@x402/svm/exact/client');
      client = options.svmRpcUrl
        ? client.register('solana:*', new svm.ExactSvmScheme(options.svmSigner, { rpcUrl: options.svmRpcUrl }))
        : svm.registerExactSvmScheme(client, { signer: options.svmSigner });
    }
    // Our limits replace the official controls: offers that break them are filtered out (so an allowed
    // later offer is chosen), and when none is left the refusal says which limit the first one broke.
    client.setSpendControls(false);
    client.registerPolicy((_version, offers) => {
      const spent = store.total() + reserved;
      const decided = offers.map((offer) => {
        const request = paymentRequestOf(offer);
        return { offer, request, decision: checkSpend(request, options, spent) };
      });
      const allowed = decided.filter(({ decision }) => decision.allowed).map(({ offer }) => offer);
      // The refusal names the limit the first offer on an allowed network and asset broke: not an offer this payer never takes.
      const first = decided.find(({ decision }) => decision.allowed || decision.limit !== 'network_or_asset') ?? decided[0];
      if (allowed.length === 0 && first && !first.decision.allowed) refusal.error = refusalOf(first.decision.limit, first.decision.message, first.request);
      return allowed;
    });
    const inFlight = new Map<PaymentRequirements, bigint>();
    const release = (requirements: PaymentRequirements) => {
      reserved -= inFlight.get(requirements) ?? 0n;
      inFlight.delete(requirements);
    };
    return client
      .onBeforePaymentCreation(async ({ selectedRequirements, paymentRequired }) => {
        const request = paymentRequestOf(selectedRequirements);
        const decision = checkSpend(request, options, store.total() + reserved);
        if (!decision.allowed) {
          refusal.error = refusalOf(decision.limit, decision.message, request);
          return { abort: true, reason: decision.message };
        }
        reserved += request.amount;
        inFlight.set(selectedRequirements, request.amount);
        if (approve && !(await Promise.resolve(approve({ ...request, resource: paymentRequired.resource?.url })).catch(() => false))) {
          release(selectedRequirements);
          refusal.error = refusalOf('approval', `${formatUsdc(request.amount)} USDC was not approved`, request);
          return { abort: true, reason: 'not approved' };
        }
      })
      .onAfterPaymentCreation(async ({ selectedRequirements, paymentRequired }) => {
        release(selectedRequirements);
        const { network, asset, payTo, amount } = selectedRequirements;
        store.record({ at: new Date().toISOString(), network, asset, payTo, amount, resource: paymentRequired.resource?.url });
      })
      .onPaymentCreationFailure(async ({ selectedRequirements }) => release(selectedRequirements));
  };

  // Offers only on networks without a signer never reach the policy: the client rejects them first.
  const asRefusal = (error: unknown): unknown =>
    error instanceof Error && error.message.includes(NO_SIGNER_FOR_NETWORK)
      ? refusalOf('network_or_asset', `no offered network is one this payer signs for (allowed: ${describeAllowed(options)})`)
      : error;

  const payerAsking = (approve: PayerOptions['approve']): Payer => ({
    wrap(fetch) {
      return async (input, init) => {
        // A client per call, so a refusal is reported to the call it belongs to.
        const refusal: { error?: SpendLimitError } = {};
        try {
          const request = new Request(input, init);
          // Every payment for this request carries its identifier: the service answers a repeat from the first.
          const client = await clientFor(approve, refusal, takePaymentIdentifier(request));
          const http = new x402HTTPClient(client);
          const remembering = rememberingChallenges(fetch, http, challenges);
          // Only a request with a body gains from paying first: without one, a 402 costs a round trip and nothing more.
          const paysFirst = request.body !== null && !isPaid(request);
          // A resource this payer has no challenge for yet: the service may publish it (one small GET per origin).
          if (paysFirst && !challenges.has(resourceKey(request))) await learnPublished(fetch, new URL(request.url).origin);
          const known = paysFirst ? challenges.get(resourceKey(request)) : undefined;
          if (known) {
            const headers = await paymentHeaders(client, http, known).catch(() => undefined);
            if (headers) return await sendPaidFirst(remembering, client, http, request, headers);
            // The owner declined: that stands. A limit refused what was seen before: the price may have changed, so
            // the request asks for the current challenge as any first request does.
            if (refusal.error?.limit === 'approval') throw refusal.error;
            refusal.error = undefined;
          }
          return await wrapFetchWithPayment(remembering, client)(request);
        } catch (error) {
          throw refusal.error ?? asRefusal(error);
        }
      };
    },
    async sign(challenge, paymentId) {
      const refusal: { error?: SpendLimitError } = {};
      try {
        return await (await clientFor(approve, refusal, paymentId)).createPaymentPayload(challenge);
      } catch (error) {
        throw refusal.error ?? asRefusal(error);
      }
    },
    spent: () => store.total(),
    withApproval: payerAsking,
    async commit(plan) {
      const decision = checkPlan(plan, options, store.total() + reserved);
      if (!decision.allowed) throw refusalOf(decision.limit, decision.message);
      if (!options.approvePlan) return payerAsking(approve);
      if (!(await Promise.resolve(options.approvePlan(plan)).catch(() => false))) throw refusalOf('approval', `${describePlan(plan)} was not approved`);
      return payerAsking(approvingPlanned(plan, approve ?? (() => true)));
    },
  });
  return payerAsking(options.approve);
}

/** Which resource a request is for: its method and its URL without the query (read without touching its body). */
function resourceKey(input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit): string {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  return `${method} ${url.origin}${url.pathname}`;
}

const isPaid = (request: Request) => request.headers.has('PAYMENT-SIGNATURE') || request.headers.has('X-PAYMENT');

/** `fetch` that keeps the challenge of every 402 it is answered with, for the resource it was asked. */
function rememberingChallenges(fetch: typeof globalThis.fetch, http: x402HTTPClient, challenges: Map<string, PaymentRequired>): typeof globalThis.fetch {
  return async (input, init) => {
    const key = resourceKey(input, init);
    const response = await fetch(input, init);
    if (response.status === 402) {
      const challenge = await challengeOf(http, response.clone());
      if (challenge) challenges.set(key, challenge);
    }
    return response;
  };
}

async function challengeOf(http: x402HTTPClient, response: Response): Promise<PaymentRequired | undefined> {
  const body: unknown = await response.json().catch(() => undefined);
  try {
    return http.getPaymentRequiredResponse((name) => response.headers.get(name), body);
  } catch {
    return undefined;
  }
}

/** The headers of a payment for `challenge`, signed within the payer's limits (its refusal is thrown). */
async function paymentHeaders(client: x402Client, http: x402HTTPClient, challenge: PaymentRequired): Promise<Record<string, string>> {
  return http.encodePaymentSignatureHeader(await client.createPaymentPayload(challenge));
}

/**
 * Sends `request` paid on its first try, for a challenge published or seen before. Requirements that went stale
 * meanwhile (a price or payTo changed) are refused with a new 402, unsettled: its challenge is paid once, on one
 * retry; never a third time.
 */
async function sendPaidFirst(fetch: typeof globalThis.fetch, client: x402Client, http: x402HTTPClient, request: Request, headers: Record<string, string>): Promise<Response> {
  const retry = request.clone();
  const send = (sent: Request, signed: Record<string, string>) => {
    for (const [name, value] of Object.entries(signed)) sent.headers.set(name, value);
    return fetch(sent);
  };
  const first = await send(request, headers);
  if (first.status !== 402) return first;
  const fresh = await challengeOf(http, first.clone());
  return fresh ? send(retry, await paymentHeaders(client, http, fresh)) : first;
}

function refusalOf(limit: SpendLimitError['limit'], message: string, payment?: PaymentRequest): SpendLimitError {
  return new SpendLimitError(limit, `Payment refused (${limit}): ${message}.`, payment);
}

function memoryStore(): SpentStore {
  let total = 0n;
  return {
    total: () => total,
    record: (payment) => void (total += BigInt(payment.amount)),
  };
}

function paymentRequestOf(requirements: PaymentRequirements): PaymentRequest {
  return { network: requirements.network, asset: requirements.asset, payTo: requirements.payTo, amount: BigInt(requirements.amount) };
}
