import { PaymentRecord } from '../payments/payment-record.entity.js';
import { CreatePaymentRecords1763800000000 } from './migrations/1763800000000-create-payment-records.js';

/** Explicit lists, identical in src/ and dist/ — no globs. */
export const ENTITIES = [PaymentRecord];
export const MIGRATIONS = [CreatePaymentRecords1763800000000];
