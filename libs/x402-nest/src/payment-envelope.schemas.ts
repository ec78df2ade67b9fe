import { z } from 'zod';
import { caip2Network, identifier, jsonObject, positiveInteger, schemeName, uint256Decimal } from './payment-field.schemas.js';

/**
 * The envelope of a payment header as @x402/core 2.27 types it (`PaymentPayload`,
 * `PaymentRequirements`, `ResourceInfo`, `PaymentPayloadV1`). The scheme payload inside is checked
 * separately (exact-payload.schemas.ts), since its shape depends on the network and scheme.
 * Unknown keys are accepted and forwarded untouched (a newer client may add fields).
 */

/** `PaymentRequirements`: what the client says it accepted, matched field by field against the offer. */
export const acceptedRequirementsSchema = z.object(
  {
    scheme: schemeName,
    network: caip2Network,
    amount: uint256Decimal,
    asset: identifier,
    payTo: identifier,
    maxTimeoutSeconds: positiveInteger,
    extra: jsonObject.optional(),
  },
  { error: 'must be an object' },
);

/** `ResourceInfo`: nothing on the server side reads it, but the type (and a remote facilitator) wants a url. */
const resourceInfoSchema = z.object(
  { url: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }) },
  { error: 'must be an object' },
);

export const paymentPayloadV2Schema = z.object({
  x402Version: z.literal(2),
  accepted: acceptedRequirementsSchema,
  payload: jsonObject,
  resource: resourceInfoSchema.optional(),
  extensions: jsonObject.optional(),
});

/** v1 names the network by name (`base`, `solana`, ...); it is checked once mapped to CAIP-2. */
export const paymentPayloadV1Schema = z.object({
  x402Version: z.literal(1),
  scheme: schemeName,
  network: z.string({ error: 'must be a string' }),
  payload: jsonObject,
});
