import { AgentWallet, type ApprovePayment, loadWalletAccount, SpendLedger } from '@fileshift/agent-wallet';
import { createClient, type FileshiftClient } from '@fileshift/sdk';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { McpConfig } from './config.js';

/** What the service declares in /.well-known/x402.json that the MCP server uses. */
export interface ServiceFacts {
  accepts: Array<{ network: string; asset: string; payTo: string }>;
  resources: Array<{ operationId: string; price: { mode: string; amount?: string; tiers?: Array<{ max_size_bytes: number; amount: string }> } }>;
  devChain?: { rpcUrl: string };
}

/**
 * State shared by every MCP session: the configuration, the wallet (one ledger, one budget) and the
 * service's declared facts, fetched on first use so the server starts even while the service is down.
 */
export class FileshiftContext {
  readonly account: PrivateKeyAccount;
  private facts?: ServiceFacts;
  private agentWallet?: AgentWallet;

  constructor(readonly config: McpConfig) {
    this.account = loadWalletAccount(config.wallet);
  }

  async serviceFacts(): Promise<ServiceFacts> {
    if (!this.facts) {
      const response = await fetch(`${this.config.serviceUrl}/.well-known/x402.json`);
      if (!response.ok) throw new Error(`${this.config.serviceUrl}/.well-known/x402.json answered HTTP ${response.status}`);
      this.facts = (await response.json()) as ServiceFacts;
    }
    return this.facts;
  }

  /** The wallet, its limits completed with what the service declares (EVM networks: the wallet holds an EVM key). */
  async wallet(): Promise<AgentWallet> {
    if (!this.agentWallet) {
      const { config } = this;
      const accepts = (await this.serviceFacts()).accepts.filter((accepted) => accepted.network.startsWith('eip155:'));
      const networks = config.allowedNetworks.length ? config.allowedNetworks : [...new Set(accepts.map((a) => a.network))];
      const allow = config.allowedAssets.length
        ? networks.flatMap((network) => config.allowedAssets.map((asset) => ({ network, asset })))
        : accepts.filter((a) => networks.includes(a.network)).map(({ network, asset }) => ({ network, asset }));
      this.agentWallet = new AgentWallet({
        account: this.account,
        ledger: new SpendLedger(config.ledgerPath),
        approvalThreshold: config.approvalThreshold,
        limits: {
          allow,
          maxPerPayment: config.maxPerPayment,
          budget: config.totalBudget,
          allowPayTo: config.allowedPayTo.length ? config.allowedPayTo : accepts.map((a) => a.payTo),
        },
      });
    }
    return this.agentWallet;
  }

  /** An SDK client paying from the wallet; `approve` asks the session's user above the threshold. */
  async client(approve?: ApprovePayment): Promise<FileshiftClient> {
    return createClient({ baseUrl: this.config.serviceUrl, payer: (await this.wallet()).payer(approve) });
  }
}

/** The fixed price (USDC, e.g. "0.002000") the service declares for an operation. */
export function fixedPrice(facts: ServiceFacts, operationId: string): string | null {
  return facts.resources.find((resource) => resource.operationId === operationId)?.price.amount ?? null;
}

/** The result price the service declares for an upload of `sizeBytes`. */
export function resultPriceFor(facts: ServiceFacts, sizeBytes: number): string | null {
  const tiers = facts.resources.find((resource) => resource.operationId === 'purchaseConversionResult')?.price.tiers ?? [];
  return tiers.find((tier) => sizeBytes <= tier.max_size_bytes)?.amount ?? null;
}
