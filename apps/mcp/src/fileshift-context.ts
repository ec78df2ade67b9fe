import { AgentWallet, loadWalletKeys, type PayerHooks, SpendLedger, type WalletKeys } from '@fileshift/agent-wallet';
import { createClient, type FileshiftClient, type SpendPlan } from '@fileshift/sdk';
import type { McpConfig } from './config.js';
import { type ServiceFacts, ServiceFactsError } from './service-facts.js';

/** What the wallet's limits allow, computed locally: readable while the service is down. */
export interface LocalSpending {
  spent: bigint;
  budget: bigint;
  budgetLeft: bigint;
  maxPerPayment: bigint;
}

/**
 * State shared by every MCP session: the configuration, the ledger, the wallet (one ledger, one
 * budget) and the service's declared facts, fetched on first use so the server starts even while
 * the service is down.
 */
export class FileshiftContext {
  /** The EVM account and/or the Solana key; never shown (their addresses are). */
  readonly keys: WalletKeys;
  /** The wallet's address, which its ledger lines name: the EVM account's, else the Solana key's. */
  readonly address: string;
  /** Local, so the spending is known while the service is down. */
  readonly ledger: SpendLedger;
  // Promises, not values: concurrent first calls share one fetch and one wallet (one set of reservations).
  private facts?: Promise<ServiceFacts>;
  private agentWallet?: Promise<AgentWallet>;

  constructor(readonly config: McpConfig) {
    this.keys = loadWalletKeys(config.wallet);
    this.address = this.keys.evm?.address ?? this.keys.solana!.address;
    this.ledger = new SpendLedger(config.ledgerPath, this.address);
  }

  /** Whether the wallet holds the key that signs on `network` (eip155:* with the EVM key, solana:* with the Solana key). */
  signsFor(network: string): boolean {
    if (network.startsWith('solana:')) return Boolean(this.keys.solana);
    return network.startsWith('eip155:') && Boolean(this.keys.evm);
  }

  serviceFacts(): Promise<ServiceFacts> {
    this.facts ??= this.fetchFacts().catch((error: unknown) => {
      this.facts = undefined; // the next call asks again
      throw error;
    });
    return this.facts;
  }

  /**
   * The wallet, its limits completed with what the service declares, on the networks it holds a key for. Holding
   * both, it pays on the first network of the service's challenge that the limits allow (the service's order).
   */
  wallet(): Promise<AgentWallet> {
    this.agentWallet ??= this.createWallet().catch((error: unknown) => {
      this.agentWallet = undefined;
      throw error;
    });
    return this.agentWallet;
  }

  spending(): LocalSpending {
    const spent = this.ledger.total();
    const { totalBudget: budget, maxPerPayment } = this.config;
    return { spent, budget, budgetLeft: budget > spent ? budget - spent : 0n, maxPerPayment };
  }

  /**
   * An SDK client paying from the wallet; `approve` asks the session's user above the threshold. With a
   * plan, the client pays only after the plan as a whole fitted the limits and was approved once.
   */
  async client(hooks: PayerHooks = {}, plan?: SpendPlan): Promise<FileshiftClient> {
    const payer = (await this.wallet()).payer(hooks);
    return createClient({ baseUrl: this.config.serviceUrl, payer: plan ? await payer.commit(plan) : payer });
  }

  private async fetchFacts(): Promise<ServiceFacts> {
    const response = await fetch(`${this.config.serviceUrl}/.well-known/x402.json`);
    if (!response.ok) throw new ServiceFactsError(`The Fileshift service at ${this.config.serviceUrl} answered HTTP ${response.status} for /.well-known/x402.json; is it healthy?`);
    return (await response.json()) as ServiceFacts;
  }

  private async createWallet(): Promise<AgentWallet> {
    const { config, keys } = this;
    const facts = await this.serviceFacts();
    const accepts = facts.accepts.filter((accepted) => this.signsFor(accepted.network));
    const networks = config.allowedNetworks.length ? config.allowedNetworks : [...new Set(accepts.map((a) => a.network))];
    const allow = config.allowedAssets.length
      ? networks.flatMap((network) => config.allowedAssets.map((asset) => ({ network, asset })))
      : accepts.filter((a) => networks.includes(a.network)).map(({ network, asset }) => ({ network, asset }));
    const solanaRpcUrl = config.solanaRpcUrl ?? facts.solanaDevChain?.rpcUrl;
    return new AgentWallet({
      account: keys.evm,
      solana: keys.solana ? { signer: await keys.solana.signer(), ...(solanaRpcUrl ? { rpcUrl: solanaRpcUrl } : {}) } : undefined,
      ledger: this.ledger,
      approvalThreshold: config.approvalThreshold,
      limits: {
        allow,
        maxPerPayment: config.maxPerPayment,
        budget: config.totalBudget,
        // By default the wallet trusts the configured service: it pays the addresses that service declares.
        allowPayTo: config.allowedPayTo.length ? config.allowedPayTo : [...new Set(accepts.map((a) => a.payTo))],
      },
    });
  }
}
