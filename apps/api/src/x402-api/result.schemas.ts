import { z } from 'zod';
import { apiSchema } from '../http-kit/api-schema-registry.js';
import { PriceSchema } from '../payments/price.schemas.js';

export const PaymentReceiptSchema = apiSchema(
  'PaymentReceipt',
  z.object({
    protocol: z.literal('x402'),
    scheme: z.literal('exact'),
    network: z.string(),
    amount: PriceSchema,
    tx_hash: z.string().optional(),
    settled_at: z.string().optional(),
  }),
);

export const PurchasedConversionResultSchema = apiSchema(
  'PurchasedConversionResult',
  z.object({
    job_id: z.string(),
    status: z.literal('paid'),
    download_url: z.string().url(),
    filename: z.string(),
    mime_type: z.string(),
    result_size_bytes: z.number().int().min(0),
    payment: PaymentReceiptSchema.optional(),
  }),
);

export type PurchasedConversionResult = z.infer<typeof PurchasedConversionResultSchema>;
