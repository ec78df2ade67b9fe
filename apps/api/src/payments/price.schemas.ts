import { z } from 'zod';
import { apiSchema } from '../http-kit/api-schema-registry.js';

/** The spec's Price (charged_amount, payment.amount). */
export const PriceSchema = apiSchema(
  'Price',
  z.object({
    amount: z.string().regex(/^[0-9]+(\.[0-9]{1,6})?$/),
    currency: z.literal('USDC'),
    atomic_units: z.string().regex(/^[0-9]+$/),
    decimals: z.literal(6),
    network: z.string().optional(),
  }),
);

/** The spec's ResultPrice: a Price with its pricing rule. */
export const ResultPriceSchema = apiSchema(
  'ResultPrice',
  PriceSchema.extend({ pricing_rule: z.enum(['file_size_lte_10mb', 'file_size_gt_10mb_lte_40mb']) }),
);
