import { createClient, createPayer, type FileshiftClient, parseUsdc } from '@fileshift/sdk';
import { tinyPng } from '@fileshift/testing';
import { privateKeyToAccount } from 'viem/accounts';
import { inject } from 'vitest';

/** What the suite knows of the stack it tests. */
export interface StackTarget {
  baseUrl: string;
  /** A key API key (STACK_API_KEY); without one the key API tests are skipped (or fail, see requireAll). */
  apiKey?: string;
  /** A funded payer's private key (STACK_PAYER_KEY); a stack in dev mode names its own dev-chain payer. */
  payerKey?: string;
  /** Every test must run (CI, or `--require-all`): no payer or no key fails the tests that need one instead of skipping them. */
  requireAll: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackTarget;
  }
}

export const stack = inject('stack');

/** The parts of /.well-known/x402.json the suite reads. */
interface Discovery {
  paymentsMode: 'dev' | 'live';
  devChain?: { network: string; usdc: `0x${string}`; payerPrivateKey: `0x${string}` };
}

export const discovery = (await (await fetch(`${stack.baseUrl}/.well-known/x402.json`)).json()) as Discovery;

/** The payer's key and what it may pay with: the dev chain's own payer, or STACK_PAYER_KEY on whatever the stack asks for. */
function payerSettings(): { key: `0x${string}`; allow: Array<{ network: string; asset: string }> } | undefined {
  if (stack.payerKey) return { key: stack.payerKey as `0x${string}`, allow: [] };
  if (discovery.devChain) return { key: discovery.devChain.payerPrivateKey, allow: [{ network: discovery.devChain.network, asset: discovery.devChain.usdc }] };
  return undefined;
}

const settings = payerSettings();
/** Paid tests run when a payer is known, and are reported skipped (not passed) otherwise, unless every test must run. */
export const canPay = settings !== undefined;
export const runPaid = canPay || stack.requireAll;
/** Key API tests run when a key is known, likewise. */
export const runKeyApi = stack.apiKey !== undefined || stack.requireAll;

let paying: Promise<FileshiftClient> | undefined;

/** The suite's one paying client: at most 0.05 USDC a payment and 0.5 in all (the suite pays about 0.07). */
export function payingClient(): Promise<FileshiftClient> {
  paying ??= (async () => {
    if (!settings) throw new Error('no payer: set STACK_PAYER_KEY, or test a stack in dev mode');
    const allow = settings.allow.length > 0 ? settings.allow : await offeredAssets();
    const payer = createPayer({ account: privateKeyToAccount(settings.key), allow, maxPerPayment: parseUsdc('0.05'), budget: parseUsdc('0.5') });
    return createClient({ baseUrl: stack.baseUrl, payer });
  })();
  return paying;
}

/** A valid detection request for a PNG, as JSON. */
export const detectRequest = { filename: 'dot.png', size_bytes: tinyPng().length, header_first_200_bytes_base64: Buffer.from(tinyPng()).toString('base64') };

export const unpaidClient = () => createClient({ baseUrl: stack.baseUrl, apiKey: stack.apiKey });

/** The networks and assets the stack's detection challenge accepts (for a payer given by key on a live stack). */
async function offeredAssets(): Promise<Array<{ network: string; asset: string }>> {
  const response = await fetch(`${stack.baseUrl}/api/x402/v1/detect-file-type`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(detectRequest) });
  const challenge = JSON.parse(Buffer.from(response.headers.get('payment-required') ?? '', 'base64').toString('utf8')) as { accepts: Array<{ network: string; asset: string }> };
  return challenge.accepts.map(({ network, asset }) => ({ network, asset }));
}
