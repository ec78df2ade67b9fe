import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/app-config.js';
import { describePaymentMode } from './describe-payment-mode.js';

const signingKey = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;

function payments(env: Record<string, string>) {
  const result = loadConfig(env, 'v');
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config.payments;
}

describe('describePaymentMode', () => {
  it('says dev, where the chains are, and that the mode is the default', () => {
    expect(describePaymentMode(payments({}), [])).toBe(
      'payments: dev — test USDC on a local anvil chain started by this process and on a local Solana started by this process, no real money (the default outside production; set PAYMENTS_MODE to choose)',
    );
    expect(describePaymentMode(payments({ PAYMENTS_MODE: 'dev', DEVCHAIN_RPC_URL: 'http://127.0.0.1:8545' }), [])).toBe(
      'payments: dev — test USDC on the shared dev chain at http://127.0.0.1:8545 and on a local Solana started by this process, no real money',
    );
    expect(describePaymentMode(payments({ PAYMENTS_MODE: 'dev', DEVCHAIN_RPC_URL: 'http://127.0.0.1:8545', DEVCHAIN_SOLANA_RPC_URL: 'http://127.0.0.1:8899' }), [])).toBe(
      'payments: dev — test USDC on the shared dev chain at http://127.0.0.1:8545 and on the shared Solana dev chain at http://127.0.0.1:8899, no real money',
    );
  });

  it('says live with the facilitator origin only (its path or query may hold a token) and the networks', () => {
    const live = payments({ FACILITATOR_URL: 'https://facilitator.example/x402?token=secret', X402_EVM_PAY_TO: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', RECEIPT_SIGNING_KEY: signingKey() });
    const line = describePaymentMode(live, [{ scheme: 'exact', network: 'eip155:8453', asset: '0x', payTo: '0x', maxTimeoutSeconds: 300 }]);
    expect(line).toBe('payments: live — facilitator https://facilitator.example, networks eip155:8453 (inferred from FACILITATOR_URL; set PAYMENTS_MODE=live to say so)');
    expect(line).not.toContain('secret');
  });
});
