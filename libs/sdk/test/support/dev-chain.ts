import { createPublicClient, erc20Abi, http } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { createPayer, PAYMENT_IDENTIFIER_HEADER, type PayerOptions } from '../../src/index.js';
import type { DevChainFacts } from '@fileshift/testing';

/** anvil's public test mnemonic: the dev chain funds its accounts 3..9 with test USDC for payers. */
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/** A funded dev-chain account of its own for each test file (any viem account can pay). */
export function anvilPayerAccount(index: 3 | 4 | 5 | 6 | 7 | 8 | 9) {
  return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
}

/** A payer for the service's dev chain; its test token has to be allowed explicitly. */
export function devChainPayer(chain: DevChainFacts, account: PayerOptions['account'], overrides: Partial<PayerOptions> = {}) {
  return createPayer({ account, allow: [{ network: chain.network, asset: chain.usdc }], maxPerPayment: 50_000n, ...overrides });
}

/** The test USDC transfers out of `address` on the chain: one per settled payment. */
export function usdcTransfersFrom(chain: DevChainFacts) {
  const client = createPublicClient({ transport: http(chain.rpcUrl) });
  return async (address: `0x${string}`) =>
    (await client.getContractEvents({ address: chain.usdc, abi: erc20Abi, eventName: 'Transfer', args: { from: address }, fromBlock: 0n })).map((event) => event.args.value);
}

/** On-chain test USDC balance, to assert what really moved. */
export function usdcBalanceOf(chain: DevChainFacts) {
  const client = createPublicClient({ transport: http(chain.rpcUrl) });
  return (address: `0x${string}`) => client.readContract({ address: chain.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Whether it carried a payment signature. */
  signed: boolean;
  /** A JSON body, parsed. */
  json?: unknown;
  /** The identifier its payment carried (x402 `payment-identifier`). */
  paymentId?: string;
  /** The amount its payment was signed for (atomic units). */
  amount?: string;
  /** Whether the payer's Payment-Identifier request header reached the wire (it must not). */
  identifierHeader: boolean;
}

/** `fetch` that notes each request (path, payment signature, JSON body) before sending it. */
export function recordingFetch() {
  const requests: RecordedRequest[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const isJson = request.headers.get('content-type')?.startsWith('application/json') ?? false;
    requests.push({
      method: request.method,
      path: new URL(request.url).pathname,
      signed: request.headers.has('PAYMENT-SIGNATURE') || request.headers.has('X-PAYMENT'),
      paymentId: paymentIdOf(request.headers.get('PAYMENT-SIGNATURE')),
      amount: amountOf(request.headers.get('PAYMENT-SIGNATURE')),
      identifierHeader: request.headers.has(PAYMENT_IDENTIFIER_HEADER),
      ...(isJson ? { json: await request.clone().json() } : {}),
    });
    return globalThis.fetch(request);
  };
  return { fetch, requests };
}

/** The payment identifier in a PAYMENT-SIGNATURE header. */
export function paymentIdOf(signature: string | null): string | undefined {
  if (!signature) return undefined;
  const payload = JSON.parse(atob(signature)) as { extensions?: { 'payment-identifier'?: { info?: { id?: string } } } };
  return payload.extensions?.['payment-identifier']?.info?.id;
}

/** The amount of the payment in a PAYMENT-SIGNATURE header. */
function amountOf(signature: string | null): string | undefined {
  return signature ? (JSON.parse(atob(signature)) as { accepted?: { amount?: string } }).accepted?.amount : undefined;
}

/** A viem account whose typed-data signatures are counted: proof, at the signer, of what was signed. */
export function countingSigner<Account extends { signTypedData: (...args: never[]) => Promise<`0x${string}`> }>(account: Account) {
  let signatures = 0;
  const counted = {
    ...account,
    signTypedData: ((...args: Parameters<Account['signTypedData']>) => {
      signatures++;
      return account.signTypedData(...args);
    }) as Account['signTypedData'],
  };
  return { account: counted, signatures: () => signatures };
}

export { noisePng, tinyPng, toneWav } from '@fileshift/testing';
