/** `dev`: local anvil chain and local Solana + in-process facilitator. `live`: remote facilitator, real networks. */
export const PAYMENTS_MODES = ['dev', 'live'] as const;
export type PaymentMode = (typeof PAYMENTS_MODES)[number];

/** What decided the mode: the variable itself, the older FACILITATOR_URL-only form, or the default. */
export type PaymentModeSource = 'PAYMENTS_MODE' | 'FACILITATOR_URL' | 'default';

/** The variables the payment-mode rules read. */
export interface PaymentModeEnvironment {
  NODE_ENV?: string;
  ROLE: 'api' | 'worker' | 'all';
  PAYMENTS_MODE?: PaymentMode;
  FACILITATOR_URL?: string;
  DEVCHAIN_RPC_URL?: string;
  DEVCHAIN_SOLANA_RPC_URL?: string;
  X402_EVM_PAY_TO?: string;
  X402_SVM_PAY_TO?: string;
  RECEIPT_SIGNING_KEY?: string;
  FAULT_PAUSE_BEFORE_ENQUEUE_MS?: number;
}

export interface PaymentModeProblem {
  variable: keyof PaymentModeEnvironment;
  message: string;
}

const LIVE_SETTINGS = 'PAYMENTS_MODE=live, FACILITATOR_URL and X402_EVM_PAY_TO and/or X402_SVM_PAY_TO';

/**
 * PAYMENTS_MODE when set. Without it, FACILITATOR_URL still means live (the form before PAYMENTS_MODE
 * existed; it can only make payments stricter, never dev), and nothing at all means dev, so that
 * `npm start` on a fresh machine serves — production refuses that default (see paymentModeProblems).
 */
export function resolvePaymentMode(env: PaymentModeEnvironment): { mode: PaymentMode; source: PaymentModeSource } {
  if (env.PAYMENTS_MODE) return { mode: env.PAYMENTS_MODE, source: 'PAYMENTS_MODE' };
  if (env.FACILITATOR_URL) return { mode: 'live', source: 'FACILITATOR_URL' };
  return { mode: 'dev', source: 'default' };
}

/** Every contradiction between the payment mode and the rest of the environment, one per variable. */
export function paymentModeProblems(env: PaymentModeEnvironment): PaymentModeProblem[] {
  const { mode } = resolvePaymentMode(env);
  const problems: PaymentModeProblem[] = [];
  if (mode === 'dev') {
    // Only processes that take payments start the dev chain; a worker takes none.
    if (env.NODE_ENV === 'production' && env.ROLE !== 'worker') {
      problems.push({
        variable: 'PAYMENTS_MODE',
        message: `dev payments (test USDC on a local chain) are refused with NODE_ENV=production: set ${LIVE_SETTINGS}`,
      });
    }
    if (env.FACILITATOR_URL) {
      problems.push({ variable: 'FACILITATOR_URL', message: 'is for live payments and contradicts PAYMENTS_MODE=dev: unset it, or set PAYMENTS_MODE=live' });
    }
    return problems;
  }
  if (!env.FACILITATOR_URL) {
    problems.push({ variable: 'FACILITATOR_URL', message: 'PAYMENTS_MODE=live needs the URL of the remote x402 facilitator' });
  }
  if (!env.X402_EVM_PAY_TO && !env.X402_SVM_PAY_TO) {
    problems.push({ variable: 'X402_EVM_PAY_TO', message: 'live payments need X402_EVM_PAY_TO and/or X402_SVM_PAY_TO' });
  }
  // Every replica must sign with the key /.well-known/did.json publishes; a key made per machine would not be.
  if (!env.RECEIPT_SIGNING_KEY && env.ROLE !== 'worker') {
    problems.push({ variable: 'RECEIPT_SIGNING_KEY', message: 'live payments need the Ed25519 key that signs offers, receipts and delivery records (PEM or JWK; e.g. openssl genpkey -algorithm ed25519)' });
  }
  for (const variable of ['DEVCHAIN_RPC_URL', 'DEVCHAIN_SOLANA_RPC_URL'] as const) {
    if (env[variable]) problems.push({ variable, message: 'is for dev payments and contradicts live payments: unset it' });
  }
  if (env.FAULT_PAUSE_BEFORE_ENQUEUE_MS !== undefined) {
    problems.push({ variable: 'FAULT_PAUSE_BEFORE_ENQUEUE_MS', message: 'is a test-only fault injection and refused with live payments' });
  }
  return problems;
}
