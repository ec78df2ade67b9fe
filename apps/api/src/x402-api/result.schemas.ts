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
    delivery_record: z
      .string()
      .regex(/^[\w-]+\.[\w-]+\.[\w-]+$/)
      .optional()
      .describe(
        'What was delivered for the payment, signed by the service: a compact JWS (EdDSA) whose kid names the key in /.well-known/did.json. Its payload binds the job, the input\'s and the output\'s SHA-256 and size, the engines and their versions, and the payment with its transaction. The same for every download of the result.',
      ),
  }),
);

export type PurchasedConversionResult = z.infer<typeof PurchasedConversionResultSchema>;
