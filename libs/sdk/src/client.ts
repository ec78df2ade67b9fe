import createOpenApiClient, { type Client, type Middleware } from 'openapi-fetch';
import { reportingNetworkErrors } from './api-errors.js';
import { type Clock, systemClock } from './clock.js';
import type { paths } from './generated/openapi.js';
import { keyApi } from './key-api.js';
import type { Payer } from './payer.js';
import { recordVerifier } from './signed-records.js';
import { verifyWebhookDelivery, type VerifyWebhookOptions, type WebhookDelivery } from './webhook-events.js';
import { x402Api } from './x402-api.js';

export interface ClientOptions {
  /** e.g. https://fileshift.example.com (no trailing /api…). */
  baseUrl: string;
  /** For the key API (/api/v1): sent as the Api-Key header; without it the no-key testing limits apply. */
  apiKey?: string;
  /** Pays the x402 API's 402 challenges within its limits; without it a 402 is a PaymentRequiredError. */
  payer?: Payer;
  fetch?: typeof globalThis.fetch;
  /** Longest wait for a conversion in convertFile; default 10 minutes. */
  conversionTimeoutMs?: number;
  /** Where waits (polling, retries) and deadlines take their time from; the system clock by default. */
  clock?: Clock;
}

const DEFAULT_CONVERSION_TIMEOUT_MS = 10 * 60_000;

/** A client of both APIs. No global state: each client has its own fetch, key and payer. */
export function createClient(options: ClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const unpaid = reportingNetworkErrors(options.fetch ?? ((input, init) => globalThis.fetch(input, init)));
  // Payment wraps fetch, not an openapi-fetch middleware: paying means sending the request again, body
  // and all, with a signature, and a middleware can only change a request or its response, not send one.
  const apiPayingWith = (payer: Payer | undefined): Client<paths> => {
    const client = createOpenApiClient<paths>({ baseUrl, fetch: payer ? payer.wrap(unpaid) : unpaid });
    if (options.apiKey) client.use(apiKeyMiddleware(options.apiKey));
    return client;
  };
  const api = apiPayingWith(options.payer);
  const context = {
    api,
    payer: options.payer,
    apiPayingWith,
    baseUrl,
    download: unpaid,
    conversionTimeoutMs: options.conversionTimeoutMs ?? DEFAULT_CONVERSION_TIMEOUT_MS,
    clock: options.clock ?? systemClock,
    verifier: recordVerifier(baseUrl, unpaid),
  };
  return {
    /** The typed openapi-fetch client for any endpoint (API key and payer applied). */
    api,
    ...x402Api(context),
    ...keyApi(context),
    /** Verifies a delivery to a job's webhook_url against the service's did.json and returns its event (docs/webhooks.md). */
    verifyWebhook: (delivery: WebhookDelivery, verifyOptions?: VerifyWebhookOptions) => verifyWebhookDelivery(context.verifier, delivery, verifyOptions),
  };
}

export type FileshiftClient = ReturnType<typeof createClient>;

/** Sends the key on key API requests only: the x402 API has no accounts. */
function apiKeyMiddleware(apiKey: string): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (schemaPath.startsWith('/api/v1/')) request.headers.set('Api-Key', apiKey);
      return request;
    },
  };
}
