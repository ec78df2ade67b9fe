/** x402 v1 network names and their CAIP-2 identifiers (v2 uses CAIP-2 only). */
export const V1_NETWORK_TO_CAIP2: Readonly<Record<string, string>> = {
  base: 'eip155:8453',
  'base-sepolia': 'eip155:84532',
  ethereum: 'eip155:1',
  polygon: 'eip155:137',
  'polygon-amoy': 'eip155:80002',
  avalanche: 'eip155:43114',
  'avalanche-fuji': 'eip155:43113',
  solana: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  'solana-devnet': 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
};

export function toCaip2Network(network: string): string {
  return V1_NETWORK_TO_CAIP2[network] ?? network;
}
