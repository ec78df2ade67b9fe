import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Account,
  BaseError,
  type Chain,
  FeeCapTooLowError,
  type Hash,
  NonceTooHighError,
  NonceTooLowError,
  type PublicActions,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
  type WriteContractParameters,
} from 'viem';

/** transferWithAuthorization on our token uses about 60k gas; the limit only has to be safely above it. */
export const SETTLEMENT_GAS_LIMIT = 200_000n;
const RECEIPT_TIMEOUT_MS = 30_000;
/** Several processes settling from one account keep taking each other's nonces; each retry re-reads it. */
const STALE_NONCE_ATTEMPTS = 6;

type FacilitatorWallet = WalletClient<Transport, Chain, Account> & PublicActions<Transport, Chain>;

interface Prepared {
  nonce: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * Sends the facilitator account's settlement transactions in one RPC round trip each: the nonce and
 * fees are kept here instead of asked for (eth_fillTransaction), and the transaction goes out with
 * eth_sendRawTransactionSync, which answers with the receipt once anvil has mined it (no polling).
 *
 * Transactions go out one at a time, in the order asked: each takes the next nonce. The nonce and fees
 * are read from the chain at the first send and again after any failed send; a send the node refused
 * for a stale nonce or fee (other processes on the same account, a fee spike) is repeated with fresh
 * values, a few times, after a short random pause so racing processes fall out of step. Any other
 * failure is not repeated: the transaction may have gone out.
 */
export class SettlementSender {
  private prepared: Promise<Prepared> | undefined;
  private readonly receipts = new Map<Hash, TransactionReceipt>();
  /** The last transaction asked for: the next one goes out once it has been answered. */
  private line: Promise<unknown> = Promise.resolve();

  constructor(private readonly wallet: FacilitatorWallet) {}

  writeContract(parameters: WriteContractParameters): Promise<Hash> {
    const sent = this.line.then(() => this.sendWithRetries(parameters));
    this.line = sent.catch(() => undefined);
    return sent;
  }

  private async sendWithRetries(parameters: WriteContractParameters): Promise<Hash> {
    for (let attempt = 1; ; attempt++) {
      try {
        const receipt = await this.send(parameters);
        this.receipts.set(receipt.transactionHash, receipt);
        return receipt.transactionHash;
      } catch (error) {
        this.prepared = undefined;
        if (!isStaleNonceOrFee(error) || attempt >= STALE_NONCE_ATTEMPTS) throw error;
        await sleep(5 + Math.random() * 25 * attempt);
      }
    }
  }

  /** The receipt of a transaction this sender sent (handed over once), else the chain's. */
  async waitForTransactionReceipt({ hash }: { hash: Hash }): Promise<TransactionReceipt> {
    const receipt = this.receipts.get(hash);
    if (!receipt) return this.wallet.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS, pollingInterval: 20 });
    this.receipts.delete(hash);
    return receipt;
  }

  private async send(parameters: WriteContractParameters): Promise<TransactionReceipt> {
    this.prepared ??= this.readFromChain();
    const prepared = await this.prepared;
    const receipt = await this.wallet.writeContractSync({
      ...parameters,
      account: this.wallet.account,
      chain: this.wallet.chain,
      // Everything viem would otherwise ask the node for, the chain id included.
      chainId: this.wallet.chain.id,
      gas: SETTLEMENT_GAS_LIMIT,
      nonce: prepared.nonce,
      maxFeePerGas: prepared.maxFeePerGas,
      maxPriorityFeePerGas: prepared.maxPriorityFeePerGas,
      // A reverted transfer is the facilitator's to report (transaction_failed), not an exception.
      throwOnReceiptRevert: false,
      // 0 leaves the wait to the node's default: anvil (1.7) refuses viem's numeric timeout parameter.
      timeout: 0,
    } as never);
    prepared.nonce += 1;
    return receipt;
  }

  private async readFromChain(): Promise<Prepared> {
    const [nonce, fees] = await Promise.all([
      this.wallet.getTransactionCount({ address: this.wallet.account.address, blockTag: 'pending' }),
      this.wallet.estimateFeesPerGas(),
    ]);
    // Twice the current fee cap: anvil's base fee only falls under our light load; a spike is caught above.
    return { nonce, maxFeePerGas: fees.maxFeePerGas * 2n, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
  }
}

function isStaleNonceOrFee(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk((cause) => cause instanceof NonceTooLowError || cause instanceof NonceTooHighError || cause instanceof FeeCapTooLowError) !== null
  );
}
