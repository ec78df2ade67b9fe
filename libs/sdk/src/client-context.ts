import type { Client } from 'openapi-fetch';
import type { Clock } from './clock.js';
import type { Payer } from './payer.js';
import type { components, paths } from './generated/openapi.js';
import { receiptOf, type SettlementReceipt } from './receipts.js';

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
}

export type WithReceipt<T> = T & { receipt?: SettlementReceipt };

/** A paid answer's data with the settlement receipt of its PAYMENT-RESPONSE header, when there is one. */
export function withReceipt<T extends object>(data: T, response: Response): WithReceipt<T> {
  const receipt = receiptOf(response);
  return receipt ? { ...data, receipt } : data;
}
