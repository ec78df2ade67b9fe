import { z } from 'zod';
import type { CallPayment } from '../call-payments.js';
import type { FileshiftContext } from '../fileshift-context.js';
import { networkName } from '../network-names.js';

export const paidOnShape = z
  .object({
    network: z.string().describe('CAIP-2 network id, e.g. eip155:8453 (Base) or solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp (Solana).'),
    network_name: z.string().describe('The network by name, e.g. Base, Solana, local Solana dev chain.'),
    transaction: z.string().nullable().describe('The settlement transaction (a hash on EVM, a signature on Solana); null when none came back.'),
  })
  .nullable()
  .describe('Where this call paid; null when it paid nothing.');

export type PaidOn = z.infer<typeof paidOnShape>;

/** Where `paid` was paid, named as the service's networks are (its local dev chains by their role). */
export async function paidOn(paid: CallPayment | null, context: FileshiftContext): Promise<PaidOn> {
  if (!paid) return null;
  // Known by now (the wallet was built from them); a failure to name a network must not hide the payment.
  const facts = await context.serviceFacts().catch(() => undefined);
  return { network: paid.network, network_name: networkName(paid.network, facts), transaction: paid.transaction };
}

/** "on Base (eip155:8453), tx 0x…", for the text the model reads. */
export function describePaidOn(where: NonNullable<PaidOn>): string {
  return `on ${where.network_name} (${where.network})${where.transaction ? `, tx ${where.transaction}` : ''}`;
}
