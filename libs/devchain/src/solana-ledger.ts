import { createHash } from 'node:crypto';
import { type Address, getBase58Decoder, getCompiledTransactionMessageDecoder, getTransactionDecoder, type Transaction } from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { BLOCKHASH_VALID_SLOTS, type LatestBlockhash, RecentBlockhashes } from './solana-recent-blockhashes.js';
import { describeTransactionError, type SolanaTransactionError, transactionErrorOf } from './solana-transaction-error.js';

export interface LedgerAccount {
  lamports: bigint;
  owner: string;
  data: Uint8Array;
  executable: boolean;
}

export interface SimulationOutcome {
  err: SolanaTransactionError | null;
  logs: string[];
  unitsConsumed: bigint;
  replacementBlockhash: LatestBlockhash | null;
}

export interface SignatureStatus {
  slot: bigint;
  err: SolanaTransactionError | null;
}

/** A transaction the ledger did not execute, with what a validator would say (JSON-RPC code and message). */
export class TransactionRefused extends Error {
  constructor(
    readonly code: number,
    readonly err: SolanaTransactionError,
    readonly logs: string[] = [],
    readonly unitsConsumed = 0n,
  ) {
    super(code === SIGNATURE_FAILURE ? 'Transaction signature verification failure' : `Transaction simulation failed: ${describeTransactionError(err)}`);
  }
}

/** JSON-RPC codes a validator answers sendTransaction/simulateTransaction refusals with. */
export const PREFLIGHT_FAILURE = -32002;
export const SIGNATURE_FAILURE = -32003;

/** litesvm's Address type is its own @solana/kit's (8.x); ours (5.x) is the same base58 string. */
type SvmAddress = Parameters<LiteSVM['getAccount']>[0];
type SvmTransaction = Parameters<LiteSVM['sendTransaction']>[0];

/**
 * One LiteSVM, and what a validator adds around its execution: the window of valid blockhashes, refusing a
 * transaction already executed (by its message, so a partially signed copy cannot even be simulated again),
 * and the statuses of recent transactions. Every call runs to its end synchronously: the ledger has one writer.
 */
export class SolanaLedger {
  readonly svm: LiteSVM;
  private readonly blockhashes: RecentBlockhashes;
  /** Executed transactions by message hash, with their blockhash's slot (kept while that blockhash is valid). */
  private readonly executed = new Map<string, { blockhashSlot: bigint }>();
  private readonly statuses = new Map<string, SignatureStatus>();

  constructor() {
    // litesvm's own blockhash check accepts only its latest blockhash: ours (RecentBlockhashes) replaces it.
    this.svm = new LiteSVM().withBlockhashCheck(false);
    this.blockhashes = new RecentBlockhashes(this.svm);
  }

  slot(): bigint {
    return this.blockhashes.slot();
  }

  latestBlockhash(): LatestBlockhash {
    return this.blockhashes.latest();
  }

  isBlockhashValid(blockhash: string): boolean {
    return this.blockhashes.issuedSlot(blockhash) !== undefined;
  }

  account(address: string): LedgerAccount | null {
    const account = this.svm.getAccount(address as SvmAddress);
    if (!account.exists) return null;
    return { lamports: account.lamports, owner: account.programAddress, data: account.data, executable: account.executable };
  }

  setAccount(address: Address, account: LedgerAccount): void {
    this.svm.setAccount({
      address: address as SvmAddress,
      lamports: account.lamports as never,
      programAddress: account.owner as SvmAddress,
      data: account.data,
      executable: account.executable,
      space: BigInt(account.data.length),
    });
  }

  minimumBalanceForRentExemption(dataLength: bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(dataLength);
  }

  status(signature: string): SignatureStatus | null {
    return this.statuses.get(signature) ?? null;
  }

  /** Simulates a wire transaction; sigVerify false lets a partially signed one through, as on a validator. */
  simulate(wire: Uint8Array, options: { sigVerify: boolean; replaceRecentBlockhash: boolean }): SimulationOutcome {
    const transaction = decode(wire);
    if (options.sigVerify && !fullySigned(transaction)) throw new TransactionRefused(SIGNATURE_FAILURE, 'SignatureFailure');
    const refusal = this.refusal(transaction, !options.replaceRecentBlockhash);
    const replacementBlockhash = options.replaceRecentBlockhash ? this.latestBlockhash() : null;
    if (refusal) return { err: refusal, logs: [], unitsConsumed: 0n, replacementBlockhash };
    this.svm.withSigverify(options.sigVerify);
    try {
      const outcome = this.svm.simulateTransaction(transaction as SvmTransaction);
      const meta = outcome instanceof FailedTransactionMetadata ? outcome.meta() : outcome.meta();
      const err = outcome instanceof FailedTransactionMetadata ? transactionErrorOf(outcome) : null;
      return { err, logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed(), replacementBlockhash };
    } finally {
      this.svm.withSigverify(true);
    }
  }

  /** Executes a fully signed wire transaction and returns its signature; throws TransactionRefused when it did not succeed. */
  send(wire: Uint8Array): string {
    const transaction = decode(wire);
    if (!fullySigned(transaction)) throw new TransactionRefused(SIGNATURE_FAILURE, 'SignatureFailure');
    const signature = signatureOf(transaction);
    const refusal = this.refusal(transaction, true);
    if (refusal) throw new TransactionRefused(PREFLIGHT_FAILURE, refusal);
    const slot = this.slot();
    const outcome = this.svm.sendTransaction(transaction as SvmTransaction);
    const err = outcome instanceof FailedTransactionMetadata ? transactionErrorOf(outcome) : null;
    // A transaction that failed in its instructions still landed (its fee is paid): like a validator, the ledger
    // keeps its status and refuses it again. One refused before running (litesvm keeps no record of it) did not land.
    if (!err || this.svm.getTransaction(signature as Parameters<LiteSVM['getTransaction']>[0])) {
      this.executed.set(messageKey(transaction), { blockhashSlot: this.blockhashes.issuedSlot(blockhashOf(transaction))! });
      this.statuses.set(signature, { slot, err });
      this.forgetExpired(slot);
    }
    if (outcome instanceof FailedTransactionMetadata) throw new TransactionRefused(PREFLIGHT_FAILURE, err!, outcome.meta().logs(), outcome.meta().computeUnitsConsumed());
    return signature;
  }

  /** Why a transaction cannot run now, before executing it: its blockhash (when checked), or it already ran. */
  private refusal(transaction: Transaction, checkBlockhash: boolean): SolanaTransactionError | undefined {
    if (this.executed.has(messageKey(transaction))) return 'AlreadyProcessed';
    if (checkBlockhash && !this.isBlockhashValid(blockhashOf(transaction))) return 'BlockhashNotFound';
    return undefined;
  }

  /**
   * A transaction whose blockhash expired is refused by that check, so it need not be remembered as executed;
   * statuses are kept as long again, like a validator's status cache. Both maps are in slot order (near enough).
   */
  private forgetExpired(slot: bigint): void {
    for (const [key, { blockhashSlot }] of this.executed) {
      if (blockhashSlot + BLOCKHASH_VALID_SLOTS >= slot) break;
      this.executed.delete(key);
    }
    for (const [signature, status] of this.statuses) {
      if (status.slot + 2n * BLOCKHASH_VALID_SLOTS >= slot) break;
      this.statuses.delete(signature);
    }
  }
}

function decode(wire: Uint8Array): Transaction {
  return getTransactionDecoder().decode(wire);
}

function fullySigned(transaction: Transaction): boolean {
  return Object.values(transaction.signatures).every((signature) => signature !== null);
}

/** A transaction's id: its first signature, the fee payer's. */
function signatureOf(transaction: Transaction): string {
  return getBase58Decoder().decode(Object.values(transaction.signatures)[0]!);
}

function blockhashOf(transaction: Transaction): string {
  return getCompiledTransactionMessageDecoder().decode(transaction.messageBytes).lifetimeToken;
}

function messageKey(transaction: Transaction): string {
  return createHash('sha256').update(new Uint8Array(transaction.messageBytes)).digest('hex');
}
