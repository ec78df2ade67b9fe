/** What the service declares in /.well-known/x402.json that the MCP server uses. */
export interface ServiceFacts {
  /** In the order the service prefers them (its 402 challenges offer them in this order too). */
  accepts: Array<{ network: string; asset: string; payTo: string }>;
  resources: Array<{ operationId: string; price: { mode: string; amount?: string; tiers?: Array<{ max_size_bytes: number; amount: string }> } }>;
  /** Dev mode only: the local EVM chain (anvil). */
  devChain?: { rpcUrl: string; network?: string };
  /** Dev mode only: the local Solana chain. */
  solanaDevChain?: { rpcUrl: string; network: string };
}

/** The service answered its discovery document with an error status. */
export class ServiceFactsError extends Error {}
