import type { Client } from 'openapi-fetch';
import type { Clock } from './clock.js';
import type { Payer } from './payer.js';
import type { components, paths } from './generated/openapi.js';
import { receiptOf, type SettlementReceipt } from './receipts.js';
import type { RecordVerifier } from './signed-records.js';

export type Schemas = components['schemas'];

/** What the helpers of one client share. */
export interface ClientContext {
  /** The typed client: API key and payments applied. */
  api: Client<paths>;
  /** The client's payer, if it has one. */
  payer?: Payer;
  /** The typed client paying with another payer (e.g. one committed to a whole conversion). */
  apiPayingWith(payer: Payer): Client<paths>;
  /** Service root without a trailing slash. */
  baseUrl: string;
  /** For download URLs: never pays. */
  download: typeof globalThis.fetch;
  conversionTimeoutMs: number;
  clock: Clock;
  /** Verifies the service's signed receipts and delivery records against its /.well-known/did.json. */
  verifier: RecordVerifier;
}

export type WithReceipt<T> = T & { receipt?: SettlementReceipt };

/** A paid answer's data with the settlement receipt of its PAYMENT-RESPONSE header (its signed receipt verified), when there is one. */
export async function withReceipt<T extends object>(data: T, response: Response, verifier: RecordVerifier): Promise<WithReceipt<T>> {
  const receipt = await receiptOf(response, verifier);
  return receipt ? { ...data, receipt } : data;
}
