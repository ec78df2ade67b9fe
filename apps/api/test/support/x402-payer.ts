import { randomBytes } from 'node:crypto';
import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { appendPaymentIdentifierToExtensions, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { wrapFetchWithPayment } from '@x402/fetch';
import type { DevChain } from '@fileshift/devchain';
import type { PrivateKeyAccount } from 'viem/accounts';

/** The official x402 client for a dev-chain account; the test token must be allowed explicitly. */
export function payingClient(chain: DevChain, account: PrivateKeyAccount): x402Client {
  const client = registerExactEvmScheme(new x402Client(), { signer: toClientEvmSigner(account, chain.publicClient as never) });
  client.setSpendControls({ allowedAssets: [{ network: chain.network, asset: chain.usdcAddress }] });
  return client;
}

export function payingFetch(chain: DevChain, account: PrivateKeyAccount): typeof fetch {
  return wrapFetchWithPayment(fetch, payingClient(chain, account)) as typeof fetch;
}

export function decodeBase64Json<T>(value: string | null): T {
  if (!value) throw new Error('header missing');
  return JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as T;
}

export const encodeBase64Json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

/** An EIP-3009 authorization signed by hand, to build payments the official client would never make. */
export async function signedPayment(
  account: PrivateKeyAccount,
  accepted: PaymentRequirements,
  overrides: Partial<{ value: string; validAfter: string; validBefore: string; to: `0x${string}` }> = {},
): Promise<PaymentPayload> {
  const now = Math.floor(Date.now() / 1000);
  const authorization = {
    from: account.address,
    to: overrides.to ?? (accepted.payTo as `0x${string}`),
    value: overrides.value ?? accepted.amount,
    validAfter: overrides.validAfter ?? String(now - 600),
    validBefore: overrides.validBefore ?? String(now + 300),
    nonce: `0x${randomBytes(32).toString('hex')}` as `0x${string}`,
  };
  const signature = await account.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: accepted.asset as `0x${string}` },
    types: {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    },
  });
  return { x402Version: 2, accepted, payload: { signature, authorization } };
}

export type Challenge = PaymentRequired;

/**
 * The official client paying with a payment identifier (x402 `payment-identifier`, through the extension's own
 * helper): every payment it signs carries `id`, as a client's retries of one request do.
 */
export function identifiedPayingFetch(chain: DevChain, account: PrivateKeyAccount, id: string): typeof fetch {
  const client = payingClient(chain, account).registerExtension({
    key: PAYMENT_IDENTIFIER,
    // A copy: the challenge's declaration is shared by every payment made from it.
    enrichPaymentPayload: async (payload) => ({ ...payload, extensions: appendPaymentIdentifierToExtensions(structuredClone(payload.extensions ?? {}), id) }),
  });
  return wrapFetchWithPayment(fetch, client) as typeof fetch;
}
