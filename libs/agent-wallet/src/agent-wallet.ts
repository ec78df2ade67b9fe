import { createPayer, type Payer, type PaymentRequest, type SpendLimits } from '@fileshift/sdk';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { SpendLedger } from './spend-ledger.js';

export interface AgentWalletOptions {
  account: PrivateKeyAccount;
  limits: SpendLimits;
  ledger: SpendLedger;
  /** Payments above this amount (atomic units) need the owner's approval; null: none do. */
  approvalThreshold?: bigint | null;
}

/** Asks the wallet's owner (e.g. the user of the MCP session that pays); false declines the payment. */
export type ApprovePayment = (request: PaymentRequest & { resource?: string }) => Promise<boolean>;

export interface WalletSpending {
  address: string;
  spent: bigint;
  /** null: no budget set. */
  budgetLeft: bigint | null;
  limits: SpendLimits;
}

/**
 * An agent's wallet: the SDK's payer with its owner's limits, a spend ledger on disk (so the
 * budget survives restarts) and, above a threshold, the owner's approval. Every payer made from
 * one wallet shares the ledger.
 */
export class AgentWallet {
  /** One payer for the wallet, so payments of every caller share the reservations that guard the budget. */
  private readonly sharedPayer: Payer;

  constructor(private readonly options: AgentWalletOptions) {
    const { ledger, limits, account } = options;
    this.sharedPayer = createPayer({ ...limits, account, spent: ledger });
  }

  get account(): PrivateKeyAccount {
    return this.options.account;
  }

  /** A payer for one caller; `approve` is asked above the threshold (without it such payments are declined). */
  payer(approve?: ApprovePayment): Payer {
    const { approvalThreshold } = this.options;
    return this.sharedPayer.withApproval((payment) => (approvalThreshold == null || payment.amount <= approvalThreshold ? true : approve ? approve(payment) : false));
  }

  spending(): WalletSpending {
    const spent = this.options.ledger.total();
    const { budget } = this.options.limits;
    return { address: this.account.address, spent, budgetLeft: budget === undefined ? null : budget > spent ? budget - spent : 0n, limits: this.options.limits };
  }
}
