import type { x402Client } from '@x402/core/client';
import type { PaymentRequirements } from '@x402/core/types';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { SpendLedger } from './spend-ledger.js';
import { checkSpend, formatUsdc, type PaymentRequest, type SpendDecision, type SpendLimits } from './spend-limits.js';

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
  budgetLeft: bigint;
  limits: SpendLimits;
}

/**
 * An agent's wallet: signs x402 payments only within its owner's limits, records each one in the
 * ledger on disk, and (above a threshold) asks the owner first. Payments in flight are reserved, so
 * concurrent payments cannot overrun the budget together.
 */
export class AgentWallet {
  private reserved = 0n;

  constructor(private readonly options: AgentWalletOptions) {}

  get account(): PrivateKeyAccount {
    return this.options.account;
  }

  /** Would this payment be signed now? */
  check(request: PaymentRequest): SpendDecision {
    return checkSpend(request, this.options.limits, this.options.ledger.totalSpent() + this.reserved);
  }

  spending(): WalletSpending {
    const spent = this.options.ledger.totalSpent();
    const { totalBudget } = this.options.limits;
    return { address: this.account.address, spent, budgetLeft: totalBudget > spent ? totalBudget - spent : 0n, limits: this.options.limits };
  }

  /**
   * Makes `client` ask this wallet before creating any payment, and record the ones it creates. The
   * client's own spend controls are narrowed to the wallet's networks and assets (the wallet caps amounts).
   * Above the approval threshold, `approve` decides; without it such payments are declined.
   */
  guard(client: x402Client, approve?: ApprovePayment): x402Client {
    const { allowedNetworks, allowedAssets } = this.options.limits;
    client.setSpendControls({
      maxAmountPerPayment: false,
      allowedAssets: allowedNetworks.flatMap((network) => allowedAssets.map((asset) => ({ network: network as `${string}:${string}`, asset }))),
    });
    const inFlight = new Map<PaymentRequirements, bigint>();
    const release = (requirements: PaymentRequirements) => {
      this.reserved -= inFlight.get(requirements) ?? 0n;
      inFlight.delete(requirements);
    };
    return client
      .onBeforePaymentCreation(async ({ selectedRequirements, paymentRequired }) => {
        const request = paymentRequestOf(selectedRequirements);
        const decision = this.check(request);
        if (!decision.allowed) return { abort: true, reason: `${decision.limit}: ${decision.message}` };
        this.reserved += request.amount;
        inFlight.set(selectedRequirements, request.amount);
        const { approvalThreshold } = this.options;
        if (approvalThreshold != null && request.amount > approvalThreshold) {
          const approved = approve ? await approve({ ...request, resource: paymentRequired.resource?.url }).catch(() => false) : false;
          if (!approved) {
            release(selectedRequirements);
            return { abort: true, reason: `approval: the owner declined paying ${formatUsdc(request.amount)} USDC` };
          }
        }
      })
      .onAfterPaymentCreation(async ({ selectedRequirements, paymentRequired }) => {
        release(selectedRequirements);
        this.options.ledger.append({
          at: new Date().toISOString(),
          ...paymentRequestOf(selectedRequirements),
          amount: selectedRequirements.amount,
          resource: paymentRequired.resource?.url,
        });
      })
      .onPaymentCreationFailure(async ({ selectedRequirements }) => release(selectedRequirements));
  }
}

function paymentRequestOf(requirements: PaymentRequirements): PaymentRequest {
  return { network: requirements.network, asset: requirements.asset, payTo: requirements.payTo, amount: BigInt(requirements.amount) };
}
