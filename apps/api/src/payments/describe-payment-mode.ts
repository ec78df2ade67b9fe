import type { AcceptedPayment } from '@fileshift/x402-nest';
import type { PaymentConfig } from '../config/app-config.js';

const HOW_CHOSEN: Record<PaymentConfig['modeSource'], string> = {
  PAYMENTS_MODE: '',
  FACILITATOR_URL: ' (inferred from FACILITATOR_URL; set PAYMENTS_MODE=live to say so)',
  default: ' (the default outside production; set PAYMENTS_MODE to choose)',
};

/** The one start-up line saying how this process takes payments, so a log shows dev payments at a glance. */
export function describePaymentMode(payments: PaymentConfig, accepts: readonly AcceptedPayment[]): string {
  const chosen = HOW_CHOSEN[payments.modeSource];
  if (payments.mode === 'dev') {
    const evm = payments.devChainRpcUrl ? `the shared dev chain at ${payments.devChainRpcUrl}` : 'a local anvil chain started by this process';
    const solana = payments.devChainSolanaRpcUrl ? `the shared Solana dev chain at ${payments.devChainSolanaRpcUrl}` : 'a local Solana started by this process';
    return `payments: dev — test USDC on ${evm} and on ${solana}, no real money${chosen}`;
  }
  // The origin only: a facilitator URL may carry a token in its path or query.
  const facilitator = payments.facilitatorUrl ? new URL(payments.facilitatorUrl).origin : 'none';
  return `payments: live — facilitator ${facilitator}, networks ${accepts.map((a) => a.network).join(', ')}${chosen}`;
}
