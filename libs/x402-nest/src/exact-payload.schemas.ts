import { z } from 'zod';
import { base64Transaction, bytes32Hex, evmAddress, evmSignature, jsonObject, uint256Decimal } from './payment-field.schemas.js';

/**
 * The scheme payloads as @x402/evm and @x402/svm 2.27 read them (`ExactEIP3009Payload`,
 * `ExactPermit2Payload`, `ExactSvmPayloadV1/V2`). Their facilitators feed these fields to
 * `BigInt`, `getAddress` and the transaction decoder unchecked, so a wrong field there is a
 * TypeError inside the facilitator; here it is a refusal naming the field. Unknown keys pass.
 */

/** EIP-3009 `transferWithAuthorization`: what USDC payments carry. */
export const exactEip3009PayloadSchema = z.object(
  {
    signature: evmSignature,
    authorization: z.object(
      {
        from: evmAddress,
        to: evmAddress,
        value: uint256Decimal,
        validAfter: uint256Decimal,
        validBefore: uint256Decimal,
        nonce: bytes32Hex,
      },
      { error: 'must be an object' },
    ),
  },
  { error: 'must be an object' },
);

/** Permit2 through x402's proxy: the EVM fallback for tokens without EIP-3009. */
export const exactPermit2PayloadSchema = z.object(
  {
    signature: evmSignature,
    permit2Authorization: z.object(
      {
        from: evmAddress,
        permitted: z.object({ token: evmAddress, amount: uint256Decimal }, { error: 'must be an object' }),
        spender: evmAddress,
        nonce: uint256Decimal,
        deadline: uint256Decimal,
        witness: z.object({ to: evmAddress, validAfter: uint256Decimal }, { error: 'must be an object' }),
      },
      { error: 'must be an object' },
    ),
  },
  { error: 'must be an object' },
);

export const exactSvmPayloadSchema = z.object({ transaction: base64Transaction }, { error: 'must be an object' });

/**
 * The schema for the payload of `scheme` on `network` (CAIP-2). Families and schemes we do not
 * know only need an object: the gate refuses them as "no matching payment requirements".
 */
export function schemePayloadSchema(network: string, scheme: string, payload: Record<string, unknown>): z.ZodType {
  if (scheme !== 'exact') return jsonObject;
  const family = network.slice(0, network.indexOf(':'));
  if (family === 'eip155') {
    // @x402/evm tells the two apart the same way (`"permit2Authorization" in payload`).
    return Object.hasOwn(payload, 'permit2Authorization') ? exactPermit2PayloadSchema : exactEip3009PayloadSchema;
  }
  if (family === 'solana') return exactSvmPayloadSchema;
  return jsonObject;
}
