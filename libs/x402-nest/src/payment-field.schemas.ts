import { z } from 'zod';

/**
 * Field rules shared by the payment header schemas. Every rule carries its own message, and no
 * message echoes the value: reasons go back to the client in the 402 challenge.
 */

const UINT256_LIMIT = 2n ** 256n;
/** ECDSA signatures are 65 bytes; ERC-1271 and ERC-6492 (smart wallet) signatures can be a few KB. */
export const MAX_SIGNATURE_BYTES = 4096;
/** A Solana transaction is at most 1232 bytes on the wire (about 1644 base64 characters). */
export const MAX_SOLANA_TRANSACTION_CHARS = 4096;
/** Asset and payTo are addresses or mints (42 or up to 44 characters); leave room for other families. */
const MAX_IDENTIFIER_CHARS = 128;
const MAX_SCHEME_CHARS = 32;

/** Same CAIP-2 shape as the application's configuration accepts. */
export const CAIP2_NETWORK = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;

function matching(pattern: RegExp, message: string) {
  return z.string({ error: message }).regex(pattern, { error: message });
}

function boundedText(maxChars: number) {
  const message = `must be a non-empty string of at most ${maxChars} characters`;
  return z.string({ error: message }).min(1, { error: message }).max(maxChars, { error: message });
}

/** A JSON object (not an array, not null). */
export const jsonObject = z.record(z.string(), z.unknown(), { error: 'must be an object' });

export const schemeName = boundedText(MAX_SCHEME_CHARS);

export const identifier = boundedText(MAX_IDENTIFIER_CHARS);

export const caip2Network = matching(CAIP2_NETWORK, 'must be a CAIP-2 network id such as eip155:8453');

export const positiveInteger = z
  .number({ error: 'must be a positive integer' })
  .int({ error: 'must be a positive integer' })
  .positive({ error: 'must be a positive integer' });

/**
 * What the EVM code feeds to `BigInt(...)` as a uint256: plain digits only (no sign, hex or
 * exponent), below 2^256. One predicate: zod runs a refinement even after a failed regex check.
 */
export const uint256Decimal = z
  .string({ error: 'must be a decimal integer below 2^256' })
  .refine((digits) => /^[0-9]{1,78}$/.test(digits) && BigInt(digits) < UINT256_LIMIT, { error: 'must be a decimal integer below 2^256' });

export const evmAddress = matching(/^0x[0-9a-fA-F]{40}$/, 'must be an address: 0x and 40 hex digits');

export const bytes32Hex = matching(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex digits');

const SIGNATURE_MESSAGE = `must be 0x-prefixed hex of whole bytes, 1 to ${MAX_SIGNATURE_BYTES} bytes`;
export const evmSignature = z
  .string({ error: SIGNATURE_MESSAGE })
  .max(2 + 2 * MAX_SIGNATURE_BYTES, { error: SIGNATURE_MESSAGE })
  .regex(/^0x(?:[0-9a-fA-F]{2})+$/, { error: SIGNATURE_MESSAGE });

const TRANSACTION_MESSAGE = `must be a standard base64 string of at most ${MAX_SOLANA_TRANSACTION_CHARS} characters`;
export const base64Transaction = z
  .string({ error: TRANSACTION_MESSAGE })
  .min(1, { error: TRANSACTION_MESSAGE })
  .max(MAX_SOLANA_TRANSACTION_CHARS, { error: TRANSACTION_MESSAGE })
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, { error: TRANSACTION_MESSAGE });
