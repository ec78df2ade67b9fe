import { z } from 'zod';
import { apiSchema } from '../http-kit/api-schema-registry.js';

export const PaymentRequirementSchema = apiSchema(
  'PaymentRequirement',
  z.object({
    scheme: z.literal('exact'),
    network: z.string().describe('CAIP-2 network id, e.g. eip155:8453.'),
    amount: z.string().regex(/^[0-9]+$/).describe('Atomic units of the asset (USDC: 6 decimals).'),
    asset: z.string().describe('Token contract address or mint.'),
    payTo: z.string().describe('Merchant wallet address.'),
    maxTimeoutSeconds: z.number().int(),
    extra: z.record(z.string(), z.unknown()).optional().describe('Scheme facts, e.g. the EIP-712 domain name and version.'),
  }),
  'One way to pay: the x402 v2 PaymentRequirements.',
);

export const PaymentRequiredSchema = apiSchema(
  'PaymentRequired',
  z.object({
    x402Version: z.number().int().describe('x402 protocol version (2).'),
    error: z.string().optional().describe('Why the last payment was refused, e.g. invalid_exact_evm_payload_signature, payment_already_used.'),
    resource: z.object({ url: z.string(), description: z.string().optional(), mimeType: z.string().optional() }),
    accepts: z.array(PaymentRequirementSchema),
  }),
  'HTTP 402 body: the payment challenge (the same object, base64-encoded, is in the PAYMENT-REQUIRED header).',
);
