/** What the service declares in /.well-known/x402.json that the MCP server uses. */
export interface ServiceFacts {
  accepts: Array<{ network: string; asset: string; payTo: string }>;
  resources: Array<{ operationId: string; price: { mode: string; amount?: string; tiers?: Array<{ max_size_bytes: number; amount: string }> } }>;
  devChain?: { rpcUrl: string };
}

/** The service answered its discovery document with an error status. */
export class ServiceFactsError extends Error {}
