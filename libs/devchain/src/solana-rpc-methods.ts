import { getBase58Decoder, getBase58Encoder, getBase64Decoder, getBase64Encoder, getTransactionDecoder, isAddress } from '@solana/kit';
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { type LedgerAccount, type SolanaLedger, TransactionRefused } from './solana-ledger.js';

/** A JSON-RPC error answer. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;

type Method = (params: unknown[]) => unknown;

/**
 * The Solana JSON-RPC methods the dev chain serves, in the shapes @solana/kit reads. They are what the
 * official x402 SVM client (getAccountInfo for the mint, getLatestBlockhash) and facilitator (simulateTransaction,
 * sendTransaction, getSignatureStatuses polled for confirmation: no subscriptions) call, plus a few for tests and
 * tools. Every other method is unknown (-32601).
 */
export function solanaRpcMethods(ledger: SolanaLedger): Record<string, Method> {
  const context = () => ({ slot: ledger.slot() });
  const withContext = (value: unknown) => ({ context: context(), value });
  return {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': 'litesvm-1.5 (Fileshift dev chain)', 'feature-set': 0 }),
    getSlot: () => ledger.slot(),
    getBlockHeight: () => ledger.slot(),
    getLatestBlockhash: () => withContext(ledger.latestBlockhash()),
    isBlockhashValid: ([blockhash]) => withContext(ledger.isBlockhashValid(text(blockhash, 'blockhash'))),
    getMinimumBalanceForRentExemption: ([length]) => ledger.minimumBalanceForRentExemption(BigInt(integer(length, 'data length'))),
    getBalance: ([address]) => withContext(ledger.account(addressParam(address))?.lamports ?? 0n),
    getAccountInfo: ([address, config]) => withContext(accountJson(ledger.account(addressParam(address)), encodingOf(config))),
    getMultipleAccounts: ([addresses, config]) => {
      if (!Array.isArray(addresses)) throw new RpcError(INVALID_PARAMS, 'Invalid params: addresses must be an array');
      return withContext(addresses.map((address) => accountJson(ledger.account(addressParam(address)), encodingOf(config))));
    },
    getTokenAccountBalance: ([address]) => withContext(tokenBalance(ledger, addressParam(address))),
    simulateTransaction: ([transaction, config]) => {
      const options = (config ?? {}) as { encoding?: string; sigVerify?: boolean; replaceRecentBlockhash?: boolean };
      const outcome = refusalsAsErrors(() =>
        ledger.simulate(wireOf(transaction, options.encoding), { sigVerify: options.sigVerify === true, replaceRecentBlockhash: options.replaceRecentBlockhash === true }),
      );
      return withContext({ ...outcome, accounts: null, returnData: null, innerInstructions: null });
    },
    sendTransaction: ([transaction, config]) => refusalsAsErrors(() => ledger.send(wireOf(transaction, (config as { encoding?: string } | undefined)?.encoding))),
    getSignatureStatuses: ([signatures]) => {
      if (!Array.isArray(signatures)) throw new RpcError(INVALID_PARAMS, 'Invalid params: signatures must be an array');
      return withContext(
        signatures.map((signature) => {
          const status = ledger.status(text(signature, 'signature'));
          // Executed at once and never rolled back: every landed transaction is final.
          return status && { slot: status.slot, confirmations: null, err: status.err, status: status.err ? { Err: status.err } : { Ok: null }, confirmationStatus: 'finalized' };
        }),
      );
    },
  };
}

function refusalsAsErrors<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof TransactionRefused) {
      throw new RpcError(error.code, error.message, {
        err: error.err,
        logs: error.logs,
        accounts: null,
        unitsConsumed: error.unitsConsumed,
        returnData: null,
        innerInstructions: null,
        replacementBlockhash: null,
      });
    }
    throw error;
  }
}

type Encoding = 'base64' | 'base58';

function encodingOf(config: unknown): Encoding {
  const encoding = (config as { encoding?: string } | undefined)?.encoding ?? 'base58';
  if (encoding !== 'base64' && encoding !== 'base58') throw new RpcError(INVALID_PARAMS, `Invalid params: the dev chain serves encodings base64 and base58, not ${encoding}`);
  return encoding;
}

function accountJson(account: LedgerAccount | null, encoding: Encoding) {
  if (!account) return null;
  const data = encoding === 'base64' ? getBase64Decoder().decode(account.data) : getBase58Decoder().decode(account.data);
  return { data: [data, encoding], executable: account.executable, lamports: account.lamports, owner: account.owner, rentEpoch: 0, space: account.data.length };
}

function wireOf(transaction: unknown, encoding = 'base58'): Uint8Array {
  const wire = text(transaction, 'transaction');
  if (encoding !== 'base64' && encoding !== 'base58') throw new RpcError(INVALID_PARAMS, `Invalid params: unknown transaction encoding ${encoding}`);
  try {
    const bytes = new Uint8Array(encoding === 'base64' ? getBase64Encoder().encode(wire) : getBase58Encoder().encode(wire));
    getTransactionDecoder().decode(bytes);
    return bytes;
  } catch {
    throw new RpcError(INVALID_PARAMS, `Invalid params: failed to deserialize the ${encoding} transaction`);
  }
}

function tokenBalance(ledger: SolanaLedger, address: string) {
  const account = ledger.account(address);
  if (!account || account.owner !== TOKEN_PROGRAM_ADDRESS || account.data.length !== 165) throw new RpcError(INVALID_PARAMS, 'Invalid param: not a Token account');
  const token = getTokenDecoder().decode(account.data);
  const mint = ledger.account(token.mint);
  const decimals = mint ? getMintDecoder().decode(mint.data).decimals : 0;
  const uiAmountString = formatUnits(token.amount, decimals);
  return { amount: token.amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

function formatUnits(amount: bigint, decimals: number): string {
  const digits = amount.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

function addressParam(value: unknown): string {
  const candidate = text(value, 'address');
  if (!isAddress(candidate)) throw new RpcError(INVALID_PARAMS, `Invalid param: ${candidate} is not a base58 address`);
  return candidate;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new RpcError(INVALID_PARAMS, `Invalid params: ${what} must be a string`);
  return value;
}

function integer(value: unknown, what: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw new RpcError(INVALID_PARAMS, `Invalid params: ${what} must be a non-negative integer`);
  return value as number;
}
