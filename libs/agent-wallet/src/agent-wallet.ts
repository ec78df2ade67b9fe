import {
  approvingPlanned,
  checkPlan,
  checkSpend,
  createPayer,
  describePlan,
  type Payer,
  type PayerOptions,
  type PaymentRequest,
  SpendLimitError,
  type SignedPayment,
  type SpendLimits,
  type SpendPlan,
} from '@fileshift/sdk';
import { zeroAddress } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { SpendLedger, SpendRecord } from './spend-ledger.js';

/** Signs Solana payments: a `@solana/kit` signer (e.g. SolanaKey.signer()), and where to read the chain. */
export interface SolanaSigning {
  signer: NonNullable<PayerOptions['svmSigner']>;
  /** A local chain's RPC (the service's Solana dev chain); the public cluster of the payment's network when absent. */
  rpcUrl?: string;
}

export interface AgentWalletOptions {
  /** Signs EVM payments; absent in a wallet with a Solana key only. */
  account?: PrivateKeyAccount;
  /** Signs Solana payments; absent in a wallet with an EVM key only. */
  solana?: SolanaSigning;
  /** Which networks it pays on: only those of the keys it holds (an allowed network without its key is refused at construction). */
  limits: SpendLimits;
  /** This wallet's ledger (made for its address: the EVM account's, else the Solana key's). */
  ledger: SpendLedger;
  /** Payments above this amount (atomic units) need the owner's approval; null: none do. */
  approvalThreshold?: bigint | null;
}

/** Asks the wallet's owner (e.g. the user of the MCP session that pays); false declines the payment. */
export type ApprovePayment = (request: PaymentRequest & { resource?: string }) => Promise<boolean>;

export interface PayerHooks {
  /** Asked above the approval threshold; without it such payments are declined. */
  approve?: ApprovePayment;
  /** Asked once for a plan of payments (a whole conversion) when any of them is above the threshold; without it such plans are declined. */
  approvePlan?: (plan: SpendPlan) => Promise<boolean>;
  /** Told of each payment this payer commits to, once it is in the ledger and before it is signed. */
  onPayment?: (payment: SpendRecord) => void;
}

export interface WalletSpending {
  /** The wallet's address: the EVM account's, else the Solana key's. */
  address: string;
  spent: bigint;
  /** null: no budget set. */
  budgetLeft: bigint | null;
  limits: SpendLimits;
}

/** What one paid request went through: its reservations, and why it was refused if it was. */
interface CallState {
  reserved: SpendRecord[];
  failure?: Error;
}

/**
 * An agent's wallet: the SDK's payer with its owner's limits, a spend ledger on disk (so the
 * budget survives restarts and holds across processes) and, above a threshold, the owner's
 * approval. Every payer made from one wallet shares the ledger and the payer's reservations.
 *
 * Each payment that passes the payer's limits is then checked again and recorded under the
 * ledger's lock (what every process spent, this payment included, must fit the budget) before it
 * is signed: a signed authorization counts as spent.
 */
export class AgentWallet {
  /** One payer for the wallet, so payments of every caller share the reservations that guard the budget. */
  private readonly sharedPayer: Payer;
  /** Recorded in the ledger, not yet reported signed: the payer's own reservations count them meanwhile. */
  private readonly inFlight: SpendRecord[] = [];

  constructor(private readonly options: AgentWalletOptions) {
    const { ledger, limits, account, solana } = options;
    const address = account?.address ?? solana?.signer.address;
    if (!address) throw new TypeError('an agent wallet needs an EVM account, a Solana signer, or both');
    if (!ledger.belongsTo(address)) throw new Error(`the spend ledger was opened for another wallet than ${address}`);
    const unsigned = limits.allow.filter(({ network }) => (network.startsWith('solana:') ? !solana : !account));
    if (unsigned.length > 0) throw new TypeError(`the wallet holds no key for ${[...new Set(unsigned.map(({ network }) => network))].join(', ')}`);
    this.sharedPayer = createPayer({
      ...limits,
      // The SDK's payer always takes EVM offers: a Solana-only wallet lists no EVM network, so this signer is never asked.
      account: account ?? NO_EVM_KEY,
      ...(solana ? { svmSigner: solana.signer, svmRpcUrl: solana.rpcUrl } : {}),
      spent: {
        total: () => ledger.total() - this.inFlight.reduce((sum, record) => sum + BigInt(record.amount), 0n),
        record: (payment) => this.signed(payment),
      },
    });
  }

  /** The EVM account; undefined in a wallet with a Solana key only. */
  get account(): PrivateKeyAccount | undefined {
    return this.options.account;
  }

  /** The address the ledger keeps this wallet's spending under: the EVM account's, else the Solana key's. */
  get address(): string {
    return this.options.account?.address ?? this.options.solana!.signer.address;
  }

  /** Each key's address. */
  get addresses(): { evm: string | null; solana: string | null } {
    return { evm: this.options.account?.address ?? null, solana: this.options.solana?.signer.address ?? null };
  }

  /** A payer for one caller. */
  payer(hooks: PayerHooks = {}): Payer {
    return {
      wrap: (fetch) => async (input, init) => this.admitted(hooks, (payer) => payer.wrap(fetch)(input, init)),
      sign: (challenge, paymentId) => this.admitted(hooks, (payer) => payer.sign(challenge, paymentId)),
      spent: () => this.options.ledger.total(),
      withApproval: (approve) => this.payer({ ...hooks, approve: approve && (async (payment) => approve(payment)) }),
      commit: (plan) => this.commit(plan, hooks),
    };
  }

  /** One paying call of the shared payer, each payment admitted by this wallet's rules (`admit`) first. */
  private async admitted<T>(hooks: PayerHooks, pay: (payer: Payer) => Promise<T>): Promise<T> {
    const call: CallState = { reserved: [] };
    try {
      return await pay(this.sharedPayer.withApproval((payment) => this.admit(payment, hooks, call)));
    } catch (error) {
      // The payer reports every declined hook as "not approved": say what really refused it.
      throw call.failure ?? error;
    } finally {
      // A reservation whose signing was never reported (it failed) stays spent: the safe side.
      for (const record of call.reserved) this.land(record);
    }
  }

  /** A payer for a plan that fits the limits as a whole, approved once when any of its payments needs approval. */
  private async commit(plan: SpendPlan, hooks: PayerHooks): Promise<Payer> {
    const { approvalThreshold, ledger, limits } = this.options;
    const decision = checkPlan(plan, limits, ledger.total());
    if (!decision.allowed) throw new SpendLimitError(decision.limit, `Payment refused (${decision.limit}): ${decision.message}.`);
    const threshold = approvalThreshold ?? null;
    if (threshold === null || !plan.payments.some((payment) => payment.maxAmount > threshold)) return this.payer(hooks);
    const approved = hooks.approvePlan ? await hooks.approvePlan(plan).catch(() => false) : false;
    if (!approved) throw new SpendLimitError('approval', `Payment refused (approval): ${describePlan(plan)} was not approved.`);
    return this.payer({ ...hooks, approve: approvingPlanned(plan, hooks.approve) });
  }

  spending(): WalletSpending {
    const spent = this.options.ledger.total();
    const { budget } = this.options.limits;
    return { address: this.address, spent, budgetLeft: budget === undefined ? null : budget > spent ? budget - spent : 0n, limits: this.options.limits };
  }

  private async admit(payment: PaymentRequest & { resource?: string }, hooks: PayerHooks, call: CallState): Promise<boolean> {
    const { approvalThreshold, ledger, limits } = this.options;
    if (approvalThreshold != null && payment.amount > approvalThreshold && !(hooks.approve && (await hooks.approve(payment)))) return false;
    const { network, asset, payTo, amount, resource } = payment;
    const signed: SignedPayment = { at: new Date().toISOString(), network, asset, payTo, amount: String(amount), ...(resource ? { resource } : {}) };
    try {
      const { decision, record } = await ledger.reserve(signed, (spent) => checkSpend(payment, limits, spent));
      if (!decision.allowed) {
        call.failure = new SpendLimitError(decision.limit, `Payment refused (${decision.limit}): ${decision.message}.`, payment);
        return false;
      }
      this.inFlight.push(record!);
      call.reserved.push(record!);
      hooks.onPayment?.(record!);
      return true;
    } catch (error) {
      call.failure = new Error(`The spend ledger ${ledger.path} could not be updated (${(error as Error).message}); nothing was signed.`);
      return false;
    }
  }

  /** The payer signed `payment`: it is already in the ledger, so it stops being in flight. */
  private signed(payment: SignedPayment): void {
    const index = this.inFlight.findIndex((record) => sameRequest(record, payment));
    if (index >= 0) this.inFlight.splice(index, 1);
    else this.options.ledger.record(payment);
  }

  private land(record: SpendRecord): void {
    const index = this.inFlight.indexOf(record);
    if (index >= 0) this.inFlight.splice(index, 1);
  }
}

const NO_EVM_KEY: PayerOptions['account'] = {
  address: zeroAddress,
  signTypedData: () => Promise.reject(new Error('this wallet holds no EVM key')),
};

function sameRequest(a: SignedPayment, b: SignedPayment): boolean {
  return a.network === b.network && a.asset === b.asset && a.payTo === b.payTo && a.amount === b.amount && (a.resource ?? '') === (b.resource ?? '');
}
