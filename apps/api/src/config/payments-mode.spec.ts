import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './app-config.js';

const FACILITATOR = { FACILITATOR_URL: 'https://facilitator.example/x402' };
const PAY_TO = { X402_EVM_PAY_TO: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' };
const { privateKey } = generateKeyPairSync('ed25519');
const KEY = { RECEIPT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string };

function problemsOf(env: Record<string, string>): string[] {
  const result = loadConfig(env, 'v');
  return result.ok ? [] : result.problems;
}

function paymentsOf(env: Record<string, string>) {
  const result = loadConfig(env, 'v');
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config.payments;
}

describe('payment mode (PAYMENTS_MODE)', () => {
  it('defaults to dev with nothing configured, so `npm start` serves on a fresh machine', () => {
    expect(paymentsOf({})).toMatchObject({ mode: 'dev', modeSource: 'default' });
    expect(paymentsOf({ NODE_ENV: 'development' })).toMatchObject({ mode: 'dev', modeSource: 'default' });
  });

  it('takes an explicit dev or live', () => {
    expect(paymentsOf({ PAYMENTS_MODE: 'dev', DEVCHAIN_RPC_URL: 'http://127.0.0.1:8545', DEVCHAIN_SOLANA_RPC_URL: 'http://127.0.0.1:8899' })).toMatchObject({
      mode: 'dev',
      modeSource: 'PAYMENTS_MODE',
      devChainRpcUrl: 'http://127.0.0.1:8545',
      devChainSolanaRpcUrl: 'http://127.0.0.1:8899',
    });
    expect(paymentsOf({ PAYMENTS_MODE: 'live', NODE_ENV: 'production', ...FACILITATOR, ...KEY, ...PAY_TO })).toMatchObject({
      mode: 'live',
      modeSource: 'PAYMENTS_MODE',
      facilitatorUrl: FACILITATOR.FACILITATOR_URL,
    });
  });

  it('refuses a mode it does not know', () => {
    expect(problemsOf({ PAYMENTS_MODE: 'test' })).toEqual([expect.stringMatching(/^PAYMENTS_MODE: .*\(got "test"\)$/)]);
  });

  it('refuses dev payments with NODE_ENV=production, by default or chosen, in one problem saying what to set', () => {
    const environments: Record<string, string>[] = [{ NODE_ENV: 'production' }, { NODE_ENV: 'production', PAYMENTS_MODE: 'dev' }, { NODE_ENV: 'production', ROLE: 'api' }];
    for (const env of environments) {
      const problems = problemsOf(env);
      expect(problems, JSON.stringify(env)).toHaveLength(1);
      expect(problems[0]).toMatch(/^PAYMENTS_MODE: dev payments .* refused with NODE_ENV=production: set PAYMENTS_MODE=live, FACILITATOR_URL and X402_EVM_PAY_TO/);
    }
  });

  it('lets a worker start in production without a payment mode: it takes no payments', () => {
    expect(problemsOf({ NODE_ENV: 'production', ROLE: 'worker' })).toEqual([]);
  });

  it('refuses live payments without a facilitator or a payTo address', () => {
    expect(problemsOf({ PAYMENTS_MODE: 'live', ...PAY_TO, ...KEY })).toEqual([expect.stringMatching(/^FACILITATOR_URL: PAYMENTS_MODE=live needs .* \(missing\)$/)]);
    expect(problemsOf({ PAYMENTS_MODE: 'live', ...FACILITATOR, ...KEY })).toEqual([expect.stringMatching(/^X402_EVM_PAY_TO: live payments need X402_EVM_PAY_TO and\/or X402_SVM_PAY_TO/)]);
    expect(problemsOf({ PAYMENTS_MODE: 'live', X402_SVM_PAY_TO: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', ...FACILITATOR, ...KEY })).toEqual([]);
  });

  it('live payments need the receipt signing key (not a worker, which signs nothing); it must be an Ed25519 private key', () => {
    expect(problemsOf({ PAYMENTS_MODE: 'live', ...FACILITATOR, ...PAY_TO })).toEqual([expect.stringMatching(/^RECEIPT_SIGNING_KEY: live payments need the Ed25519 key .* \(missing\)$/)]);
    expect(problemsOf({ PAYMENTS_MODE: 'live', ROLE: 'worker', ...FACILITATOR, ...PAY_TO })).toEqual([]);
    const jwk = JSON.stringify(privateKey.export({ format: 'jwk' }));
    expect(paymentsOf({ PAYMENTS_MODE: 'live', ...FACILITATOR, ...PAY_TO, RECEIPT_SIGNING_KEY: jwk })).toMatchObject({ receiptSigningKey: jwk });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    expect(problemsOf({ RECEIPT_SIGNING_KEY: rsa })).toEqual(['RECEIPT_SIGNING_KEY: must be an Ed25519 key (got rsa) (value hidden)']);
    expect(problemsOf({ RECEIPT_SIGNING_KEY: 'secret' })).toEqual(['RECEIPT_SIGNING_KEY: must be a private key in PEM (PKCS#8) or JWK form (value hidden)']);
  });

  it('refuses FACILITATOR_URL with PAYMENTS_MODE=dev, and either dev chain or fault injection with live', () => {
    expect(problemsOf({ PAYMENTS_MODE: 'dev', ...FACILITATOR })).toEqual([expect.stringMatching(/^FACILITATOR_URL: is for live payments and contradicts PAYMENTS_MODE=dev/)]);
    expect(problemsOf({ PAYMENTS_MODE: 'live', ...FACILITATOR, ...KEY, ...PAY_TO, DEVCHAIN_RPC_URL: 'http://127.0.0.1:8545' })).toEqual([
      expect.stringMatching(/^DEVCHAIN_RPC_URL: is for dev payments/),
    ]);
    expect(problemsOf({ PAYMENTS_MODE: 'live', ...FACILITATOR, ...KEY, ...PAY_TO, DEVCHAIN_SOLANA_RPC_URL: 'http://127.0.0.1:8899' })).toEqual([
      expect.stringMatching(/^DEVCHAIN_SOLANA_RPC_URL: is for dev payments/),
    ]);
    expect(problemsOf({ ...FACILITATOR, ...KEY, ...PAY_TO, FAULT_PAUSE_BEFORE_ENQUEUE_MS: '1000' })).toEqual([expect.stringMatching(/^FAULT_PAUSE_BEFORE_ENQUEUE_MS: is a test-only/)]);
  });

  it('still reads FACILITATOR_URL alone as live (the form before PAYMENTS_MODE), with live mode\'s requirements', () => {
    expect(paymentsOf({ NODE_ENV: 'production', ...FACILITATOR, ...KEY, ...PAY_TO })).toMatchObject({ mode: 'live', modeSource: 'FACILITATOR_URL' });
    expect(problemsOf({ ...FACILITATOR, ...KEY })).toEqual([expect.stringMatching(/^X402_EVM_PAY_TO: live payments need/)]);
  });
});
