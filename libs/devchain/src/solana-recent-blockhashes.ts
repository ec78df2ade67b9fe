import type { LiteSVM } from 'litesvm';

/** A slot every 400 ms and a blockhash valid for 150 slots (about a minute), as on Solana's clusters. */
export const SLOT_MS = 400;
export const BLOCKHASH_VALID_SLOTS = 150n;

export interface LatestBlockhash {
  blockhash: string;
  lastValidBlockHeight: bigint;
}

/**
 * The window of blockhashes a transaction may name, over one LiteSVM. litesvm itself accepts only its latest
 * blockhash, so a payment signed just before another one lands would be refused; a validator accepts any of the
 * last 150. The chain's clock follows wall time: each slot reached warps litesvm there and expires its blockhash,
 * and a blockhash stays valid until 150 slots after its own. (The chain has a block per slot: height = slot.)
 */
export class RecentBlockhashes {
  private readonly startedAt = Date.now();
  private readonly firstSlot: bigint;
  private current: bigint;
  /** Each blockhash still valid, with the slot it was issued at. */
  private readonly issuedAt = new Map<string, bigint>();

  constructor(private readonly svm: LiteSVM) {
    this.firstSlot = this.current = svm.getClock().slot;
    this.issuedAt.set(svm.latestBlockhash(), this.current);
  }

  /** The current slot; moving the chain to it first if wall time has reached a new one. */
  slot(): bigint {
    const now = this.firstSlot + BigInt(Math.floor((Date.now() - this.startedAt) / SLOT_MS));
    if (now > this.current) {
      this.current = now;
      this.svm.warpToSlot(now);
      this.svm.expireBlockhash();
      this.issuedAt.set(this.svm.latestBlockhash(), now);
      for (const [hash, slot] of this.issuedAt) if (slot + BLOCKHASH_VALID_SLOTS < now) this.issuedAt.delete(hash);
    }
    return this.current;
  }

  latest(): LatestBlockhash {
    const slot = this.slot();
    return { blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: slot + BLOCKHASH_VALID_SLOTS };
  }

  /** The slot a valid blockhash was issued at; undefined when it is unknown or expired. */
  issuedSlot(blockhash: string): bigint | undefined {
    const slot = this.slot();
    const issued = this.issuedAt.get(blockhash);
    return issued !== undefined && issued + BLOCKHASH_VALID_SLOTS >= slot ? issued : undefined;
  }
}
