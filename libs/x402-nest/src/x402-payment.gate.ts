import { setImmediate as nextLoopTurn } from 'node:timers/promises';
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from '@x402/core/http';
import {
  type HTTPRequestContext,
  type HTTPResponseInstructions,
  type RouteConfig,
  x402HTTPResourceServer,
  type x402ResourceServer,
} from '@x402/core/server';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import type { OfferReceiptIssuer } from '@x402/extensions/offer-receipt';
import { AFTER_SETTLEMENT_RETRIES, withRetries } from '@fileshift/retry';
import { HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AcceptedPayment } from './accepted-payment.js';
import { type CachedChallenge, ChallengeCache, type OfferedChallenge } from './challenge-cache.js';
import { FastifyExchange } from './fastify-exchange.js';
import type { FacilitatorTiming, PaidExchange, PricedAdapter } from './paid-exchange.js';
import { type PaidToolCall, ToolCallExchange } from './tool-call-exchange.js';
import { PublishedRequestAdapter } from './published-request.adapter.js';
import { RouteResourceServer } from './route-resource-server.js';
import { type EarlierPayment, PaymentIdentifierInUseError, type PaymentLedger, PaymentReplayError } from './payment-ledger.js';
import { carriedIdentifier, challengeExtensions } from './payment-identifier.js';
import { type ChallengeVerification, verifyAgainstChallenge } from './verify-against-challenge.js';
import { repeatedReceipt, SIGNED_CHALLENGE_MAX_AGE_MS, useOfferReceipts } from './offer-receipts.js';
import { type ReadPayment, upgradeV1Payment } from './payment-header.js';
import { payerOf, paymentNonce } from './payment-nonce.js';
import type { CollectedPayment, PaymentReceipt, RoutePayment } from './route-payment.js';
import { X402PaymentIdentifierConflictException, X402PaymentRequiredException, X402UnavailableException } from './x402.exceptions.js';

const REPLAY_REASON = 'payment_already_used: this signed payment was presented before';

function toPrice(priceAtomic: number | bigint | string): string {
  const price = BigInt(priceAtomic);
  if (price <= 0n) throw new RangeError('a paid route needs a positive price');
  return price.toString();
}

export interface PaidRoute {
  /** Stable name of the paid operation, recorded with each payment. */
  name: string;
  description: string;
  mimeType?: string;
}

export interface X402GateOptions {
  /** A resource server with its facilitator clients and the scheme of every accepted network registered. */
  resourceServer: x402ResourceServer;
  accepts: AcceptedPayment[];
  ledger: PaymentLedger;
  /** Absolute base URL of the service behind a proxy; used for the challenge's resource URL. */
  publicBaseUrl?: string;
  onError?: (message: string, error: unknown) => void;
  /** Hears how each settlement of a route ended (metrics); must not throw. */
  onSettlement?: (route: string, outcome: SettlementOutcome) => void;
  /**
   * The x402 extensions a route declares in its challenges (Bazaar discovery metadata…), asked once per route
   * at its first request. Each needs its resource-server extension registered to be enriched (method, path).
   */
  extensionsOf?: (route: PaidRoute) => Record<string, unknown> | undefined;
  /**
   * Signs offers and receipts (x402 `offer-receipt`): every challenge then carries signed offers and every settlement
   * (a repeated one too) a signed receipt naming its transaction.
   */
  offerReceipts?: OfferReceiptIssuer;
}

/** A payment verified, refused for a reason (answered with the kept challenge), or answered as core built it. */
type Verification = Exclude<ChallengeVerification, { kind: 'other-flow' }> | { kind: 'answered'; response: HTTPResponseInstructions };

/** `settled`: the money moved; `refused`: the facilitator declined (402); `unavailable`: it could not be asked (503). */
export type SettlementOutcome = 'settled' | 'refused' | 'unavailable';

/**
 * Drives `@x402/core`'s HTTP resource server for Fastify requests: challenge, verify and record when a
 * route collects its payment; settle (and record) when the route says its work is done.
 */
export class X402PaymentGate {
  private readonly routeServers = new Map<string, Promise<x402HTTPResourceServer>>();
  /** The settlements under way: what records each one's payment once the facilitator has settled it. */
  private readonly settling = new WeakMap<object, (settled: { transaction: string; payer?: string }) => Promise<PaymentReceipt>>();
  /** Routes whose declared extensions hook each request (core may then answer differently): verified by core alone. */
  private readonly coreOnlyRoutes = new Set<string>();
  /**
   * An unpaid request's challenge depends only on its route, its price and its resource URL: the route servers
   * have no hooks, their extensions are declared once per route (enriched only from the method and the URL), and
   * the `exact` scheme adds nothing per request (no nonce, no timestamp).
   */
  private readonly challenges: ChallengeCache;
  /** What every route declares for offers and receipts: nothing without an issuer. */
  private readonly offerReceiptDeclaration: Record<string, unknown>;

  constructor(private readonly options: X402GateOptions) {
    if (options.accepts.length === 0) throw new Error('X402PaymentGate needs at least one accepted payment');
    // Signed offers expire: a kept challenge is rebuilt long before its offers do.
    this.challenges = new ChallengeCache(256, options.offerReceipts ? SIGNED_CHALLENGE_MAX_AGE_MS : undefined);
    this.offerReceiptDeclaration = options.offerReceipts ? useOfferReceipts(options.resourceServer, options.offerReceipts) : {};
    // Told each settlement the facilitator made, before core's extensions enrich the answer (the signed receipt).
    options.resourceServer.onAfterSettle(async ({ paymentPayload, result }) => {
      const record = this.settling.get(paymentPayload);
      if (!record) return;
      void record(result);
      // Core signs the receipt once this hook returns. A database client sends a query on its next tick, after every
      // promise continuation has run, the signature's included: a turn of the event loop lets the settled record's
      // write leave first, so that the signature is made while the database commits it, not before.
      await nextLoopTurn();
    });
  }

  get accepts(): readonly AcceptedPayment[] {
    return this.options.accepts;
  }

  /** The payment of one request to `route`: what its handler collects and settles. */
  paymentFor(request: FastifyRequest, reply: FastifyReply, route: PaidRoute): RoutePayment {
    return this.paymentOf(new FastifyExchange(request, reply, this.options.publicBaseUrl), route);
  }

  /**
   * The payment of an MCP tool call paid as `route`'s operation (x402 MCP transport): the same challenge, ledger
   * records, identifiers and receipts as the HTTP route's; the settlement's answer goes to `call.settled`.
   */
  paymentForMcp(call: PaidToolCall, route: PaidRoute): RoutePayment {
    return this.paymentOf(new ToolCallExchange(call), route);
  }

  /** The payment of one exchange with `route`, whichever transport carries it. */
  private paymentOf(exchange: PaidExchange, route: PaidRoute): RoutePayment {
    return {
      collect: async (priceAtomic, reference) => this.collect(exchange, route, toPrice(priceAtomic), reference, exchange.presented()),
      get identifier() {
        const payment = exchange.presented();
        const carried = payment.kind === 'v2' ? carriedIdentifier(payment.payload) : undefined;
        return carried?.kind === 'valid' ? carried.scoped : undefined;
      },
    };
  }

  /** Challenge, decode, verify and record: the payment is then held until its route settles or releases it. */
  private async collect(exchange: PaidExchange, route: PaidRoute, priceAtomic: string, reference: string | undefined, presented: ReadPayment): Promise<CollectedPayment> {
    const pattern = exchange.routePattern;
    const server = await this.routeServer(route, pattern);
    const context = (payment?: PaymentPayload): HTTPRequestContext => {
      const adapter = exchange.adapter(priceAtomic, payment);
      return { adapter, path: exchange.path, method: exchange.method, routePattern: pattern };
    };

    let payload: PaymentPayload;
    switch (presented.kind) {
      case 'none':
        throw await this.challenge(server, context(), route);
      case 'malformed':
        throw await this.challenge(server, context(), route, presented.reason);
      case 'v1': {
        const offered = await this.challenge(server, context(), route);
        if (!(offered instanceof X402PaymentRequiredException)) throw offered;
        const upgraded = upgradeV1Payment(presented, offered.challenge.accepts);
        if (!upgraded) {
          throw await this.challenge(server, context(), route, `unsupported_network: no "${presented.scheme}" payment accepted on ${presented.network}`);
        }
        payload = upgraded;
        break;
      }
      case 'v2':
        payload = presented.payload;
    }

    const carried = carriedIdentifier(payload);
    if (carried.kind === 'invalid') throw await this.challenge(server, context(), route, `invalid_payment_identifier: ${carried.reason}`);
    const identifier = carried.kind === 'valid' ? { scoped: carried.scoped, fingerprint: exchange.fingerprint(route.name, priceAtomic) } : undefined;

    // The nonce is reserved in the ledger beside verification, not after it, so the durable write before
    // settlement adds no round trip of its own; verification is asked first, so that the facilitator is at work
    // while the write is prepared (and, on an embedded database, run in this thread). A payment that is not
    // verified gives its reservation back: the same signed payment may be presented again once the payer can pay
    // (or the facilitator is back).
    const kept = this.coreOnlyRoutes.has(route.name) ? undefined : await this.offered(server, context(), route);
    const timing: FacilitatorTiming = { verifyMs: 0, settleMs: 0 };
    const verifyStarted = performance.now();
    const verifying = this.unlessUnavailable(() => this.verify(server, kept, context(payload), route, payload), 'verify').finally(() => {
      timing.verifyMs = performance.now() - verifyStarted;
    });
    const [verification, reservation] = await Promise.allSettled([verifying, this.reserve(payload, route, reference, identifier)]);
    if (reservation.status === 'rejected' && identifier && (reservation.reason instanceof PaymentReplayError || reservation.reason instanceof PaymentIdentifierInUseError)) {
      // Before the verification's outcome: the first payment may have spent what this one would pay with.
      const earlier = await this.options.ledger.paymentWithId(identifier.scoped);
      if (earlier) return this.repeated(earlier, identifier.fingerprint, route, exchange, context().adapter.getUrl());
      // Held a moment ago, failed since: the identifier is free again.
      if (reservation.reason instanceof PaymentIdentifierInUseError) throw new X402PaymentIdentifierConflictException('in_progress');
    }
    if (reservation.status === 'rejected' && reservation.reason instanceof PaymentReplayError) throw await this.challenge(server, context(), route, REPLAY_REASON);
    const verified = verification.status === 'fulfilled' ? verification.value : undefined;
    if (verified?.kind !== 'verified') {
      if (reservation.status === 'fulfilled') await this.options.ledger.discardUnverified(reservation.value);
      if (verification.status === 'rejected') throw verification.reason;
      if (verified?.kind === 'answered') throw this.refusal(verified.response);
      throw await this.challenge(server, context(), route, verified?.reason);
    }
    if (reservation.status === 'rejected') throw reservation.reason;
    const recordId = reservation.value;
    const { requirements: paymentRequirements, declaredExtensions } = verified;
    const ledger = this.options.ledger;
    let open = true;
    const close = () => {
      if (!open) throw new Error(`the payment of ${route.name} was already settled or released`);
      open = false;
    };

    return {
      network: paymentRequirements.network,
      amountAtomic: paymentRequirements.amount,
      payer: payerOf(payload) ?? null,
      repeated: false,
      release: async (reason) => {
        close();
        await ledger.recordFailed(recordId, reason);
      },
      settle: async () => {
        close();
        // The money moved once the facilitator says so: from then on the record is written, beside the receipt core
        // signs (afterSettle). Once written settled, a record is never marked failed.
        let recording: Promise<PaymentReceipt> | undefined;
        const settleStarted = performance.now();
        // First called by the afterSettle hook, as the facilitator's answer arrives: that ends the settlement's timing.
        const record = (settled: { transaction: string; payer?: string }) => {
          if (!recording) {
            timing.settleMs = performance.now() - settleStarted;
            recording = this.recordSettled(recordId, settled.transaction, settled.payer ?? payerOf(payload) ?? null);
          }
          return recording;
        };
        const recordFailed = async (reason: string) => void (recording ? await recording : await ledger.recordFailed(recordId, reason));
        this.settling.set(payload, record);
        let settlement;
        try {
          // @x402/core 2.27 hands back the declarations its challenge enriched in place (offer-receipt's became the
          // offers): the route's own declaration is what tells the receipt to name the transaction.
          const declared = { ...declaredExtensions, ...this.offerReceiptDeclaration };
          settlement = await server.processSettlement(payload, paymentRequirements, declared, { request: context(payload) });
        } catch (error) {
          this.options.onError?.('settlement failed to run', error);
          this.options.onSettlement?.(route.name, 'unavailable');
          await recordFailed('settlement_unavailable');
          throw new X402UnavailableException('The payment facilitator is unavailable; nothing was charged. Retry later.');
        } finally {
          this.settling.delete(payload);
        }
        if (!settlement.success) {
          this.options.onSettlement?.(route.name, 'refused');
          await recordFailed(settlement.errorReason);
          // The reason is a code the client can act on; the facilitator's message may quote its libraries
          // (an RPC URL, a request body), so it goes to our log only.
          if (settlement.errorMessage) this.options.onError?.(`settlement of payment ${recordId} refused (${settlement.errorReason})`, new Error(settlement.errorMessage));
          throw await this.challenge(server, context(), route, `settlement_failed: ${settlement.errorReason}`);
        }
        this.options.onSettlement?.(route.name, 'settled');
        const receipt = await record(settlement);
        // The official exact facilitator leaves the amount out of its answer: the receipt must still say what was settled.
        // What encodePaymentResponseHeader encodes (extensionResponses are not the buyer's); the exchange encodes it.
        const { headers, requirements: _requirements, extensionResponses: _responses, ...settled } = settlement;
        exchange.answerSettlement({ ...settled, amount: settled.amount ?? paymentRequirements.amount }, headers, timing);
        return receipt;
      },
    };
  }

  /**
   * A request repeated with the identifier of an earlier payment: that payment's receipt when it settled for the
   * same request; 409 when it was for another request, or is still being settled.
   */
  private repeated(earlier: EarlierPayment, fingerprint: string, route: PaidRoute, exchange: PaidExchange, resourceUrl: string): CollectedPayment {
    if (earlier.endpoint !== route.name || earlier.requestFingerprint !== fingerprint) throw new X402PaymentIdentifierConflictException('reused');
    const receipt = earlier.receipt;
    if (!receipt) throw new X402PaymentIdentifierConflictException('in_progress');
    return {
      network: receipt.network,
      amountAtomic: receipt.amountAtomic,
      payer: receipt.payer,
      repeated: true,
      release: async () => undefined,
      settle: async () => {
        const issuer = this.options.offerReceipts;
        const extensions = issuer ? await repeatedReceipt(issuer, resourceUrl, receipt) : {};
        exchange.answerSettlement({ ...paymentResponseOf(receipt), ...(Object.keys(extensions).length ? { extensions } : {}) }, {});
        return receipt;
      },
    };
  }

  /**
   * Matches and verifies `payload` against the route's kept challenge — what its payer was shown, and what `@x402/core`
   * would build again for this request. Without one (an extension's request hook, no challenge), or for a flow other
   * than verify-then-settle, the request goes through core's own `processHTTPRequest`.
   */
  private async verify(server: x402HTTPResourceServer, kept: CachedChallenge | undefined, context: HTTPRequestContext, route: PaidRoute, payload: PaymentPayload): Promise<Verification> {
    const checked = kept ? await verifyAgainstChallenge(this.options.resourceServer, kept.challenge, payload, context) : undefined;
    if (checked && checked.kind !== 'other-flow') return checked;
    const processed = await server.processHTTPRequest(context);
    if (processed.type === 'payment-verified') return { kind: 'verified', requirements: processed.paymentRequirements, declaredExtensions: processed.declaredExtensions };
    if (processed.type === 'payment-error') return { kind: 'answered', response: processed.response };
    throw new Error(`route ${route.name} is not protected`);
  }

  /** Marks the payment settled: the money moved, so the write is retried through a short database outage. */
  private recordSettled(recordId: string, txHash: string, payer: string | null): Promise<PaymentReceipt> {
    const recording = withRetries(() => this.options.ledger.recordSettled(recordId, { txHash, payer, settledAt: new Date() }), {
      ...AFTER_SETTLEMENT_RETRIES,
      onRetry: (error) => this.options.onError?.(`recording settled payment ${recordId} (tx ${txHash}) failed; retrying`, error),
    });
    // Awaited by its settlement, which may still be in core's hands when the write fails: not an unhandled rejection.
    recording.catch(() => undefined);
    return recording;
  }

  /** Records the payment as presented for `route`; a nonce seen before on its network is a replay (PaymentReplayError). */
  private reserve(payload: PaymentPayload, route: PaidRoute, reference: string | undefined, identifier: { scoped: string; fingerprint: string } | undefined): Promise<string> {
    const requirements = payload.accepted;
    return this.options.ledger.recordVerified({
      endpoint: route.name,
      scheme: requirements.scheme,
      network: requirements.network,
      payer: payerOf(payload) ?? null,
      amountAtomic: requirements.amount,
      asset: requirements.asset,
      payTo: requirements.payTo,
      nonce: paymentNonce(payload),
      reference: reference ?? null,
      paymentId: identifier?.scoped ?? null,
      requestFingerprint: identifier?.fingerprint ?? null,
    });
  }

  /** The 402 challenge of this route and request, with an optional reason for refusing the last attempt. */
  private async challenge(server: x402HTTPResourceServer, context: HTTPRequestContext, route: PaidRoute, error?: string): Promise<HttpException> {
    const offered = await this.offered(server, context, route);
    // Not a challenge (a status other than 402): answered as it came, never cached.
    if (!offered) return this.refusal((await this.unpaidAnswer(server, context)).response);
    if (error === undefined) return X402PaymentRequiredException.withoutStack(offered.challenge, offered.headers, offered.body);
    const challenge = { ...offered.challenge, error };
    return X402PaymentRequiredException.withoutStack(challenge, { ...offered.headers, 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(challenge) });
  }

  /**
   * The challenge an unpaid `method` request to `path` (a route without path parameters) is answered with at
   * `priceAtomic`, its resource URL under `baseUrl`; built without a request and kept with the ones answered. A
   * discovery document publishes it, so a client pays on its first request exactly as it would answer this challenge.
   * Throws 503 when the facilitator cannot be asked.
   */
  async publishedChallenge(route: PaidRoute, method: string, path: string, baseUrl: string, priceAtomic: number | bigint | string): Promise<Readonly<PaymentRequired>> {
    const server = await this.routeServer(route, path);
    const adapter = new PublishedRequestAdapter(method, path, `${baseUrl}${path}`, toPrice(priceAtomic));
    const offered = await this.offered(server, { adapter, path, method }, route);
    if (!offered) throw new Error(`route ${route.name} answers an unpaid request with no challenge`);
    return offered.challenge;
  }

  /** The route's challenge at this price and resource URL, built once and kept; undefined when it answers no challenge. */
  private offered(server: x402HTTPResourceServer, context: HTTPRequestContext, route: PaidRoute): Promise<CachedChallenge | undefined> {
    const adapter = context.adapter as PricedAdapter;
    return this.challenges.get(`${route.name}\n${adapter.priceAtomic}\n${adapter.getUrl()}`, () => this.offer(server, context));
  }

  /** What `@x402/core` answers an unpaid request: its challenge, undefined when it answers something else. */
  private async offer(server: x402HTTPResourceServer, context: HTTPRequestContext): Promise<OfferedChallenge | undefined> {
    const refusal = this.refusal((await this.unpaidAnswer(server, context)).response);
    return refusal instanceof X402PaymentRequiredException ? { challenge: refusal.challenge, headers: refusal.headers } : undefined;
  }

  private async unpaidAnswer(server: x402HTTPResourceServer, context: HTTPRequestContext) {
    const unpaid = await this.unlessUnavailable(() => server.processHTTPRequest(context), 'challenge');
    if (unpaid.type !== 'payment-error') throw new Error('expected a payment challenge');
    return unpaid;
  }

  private refusal(response: HTTPResponseInstructions): HttpException {
    const encoded = response.headers['PAYMENT-REQUIRED'];
    if (response.status !== 402 || !encoded) return new HttpException(response.body ?? 'Payment refused', response.status);
    const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
    return new X402PaymentRequiredException(decodePaymentRequiredHeader(encoded), headers);
  }

  /**
   * `pattern`: the route's Fastify path (`/jobs/:id/result`), which Bazaar metadata names; any method (a GET route
   * answers HEAD too).
   */
  private routeServer(route: PaidRoute, pattern: string): Promise<x402HTTPResourceServer> {
    let server = this.routeServers.get(route.name);
    if (!server) {
      server = this.createRouteServer(route, pattern);
      this.routeServers.set(route.name, server);
      // A facilitator that was down at the first request must not stay cached as a failure.
      server.catch(() => this.routeServers.delete(route.name));
    }
    return server;
  }

  private async createRouteServer(route: PaidRoute, pattern: string): Promise<x402HTTPResourceServer> {
    const extensions = { ...challengeExtensions(this.options.extensionsOf?.(route)), ...this.offerReceiptDeclaration };
    const config: RouteConfig = {
      description: route.description,
      mimeType: route.mimeType ?? 'application/json',
      extensions,
      accepts: this.options.accepts.map((accepted) => ({
        scheme: accepted.scheme,
        network: accepted.network as `${string}:${string}`,
        payTo: accepted.payTo,
        maxTimeoutSeconds: accepted.maxTimeoutSeconds ?? 300,
        price: (context: HTTPRequestContext) => ({
          asset: accepted.asset,
          amount: (context.adapter as PricedAdapter).priceAtomic,
          ...(accepted.extra ? { extra: accepted.extra } : {}),
        }),
        ...(accepted.extra ? { extra: accepted.extra } : {}),
      })),
    };
    const hooked = this.options.resourceServer.getExtensions().some((extension) => extension.key in extensions && extension.transportHooks?.http?.onProtectedRequest);
    if (hooked) this.coreOnlyRoutes.add(route.name);
    const server = new RouteResourceServer(this.options.resourceServer, { [pattern]: config });
    try {
      await server.initialize();
    } catch (error) {
      this.options.onError?.('x402 resource server failed to initialise', error);
      throw new X402UnavailableException('The payment facilitator is unavailable; nothing was charged. Retry later.');
    }
    return server;
  }

  private async unlessUnavailable<T>(run: () => Promise<T>, what: string): Promise<T> {
    try {
      return await run();
    } catch (error) {
      this.options.onError?.(`x402 ${what} failed`, error);
      throw new X402UnavailableException('The payment facilitator is unavailable; nothing was charged. Retry later.');
    }
  }
}

/** The settlement answer (PAYMENT-RESPONSE) of a payment settled earlier, from its receipt. */
function paymentResponseOf(receipt: PaymentReceipt) {
  return { success: true, transaction: receipt.txHash, network: receipt.network as `${string}:${string}`, amount: receipt.amountAtomic, ...(receipt.payer ? { payer: receipt.payer } : {}) };
}
