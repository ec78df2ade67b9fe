import type { ServiceFacts } from './service-facts.js';

/** Public networks by CAIP-2 id. */
const KNOWN_NETWORKS: Readonly<Record<string, string>> = {
  'eip155:1': 'Ethereum',
  'eip155:8453': 'Base',
  'eip155:84532': 'Base Sepolia',
  'eip155:10': 'OP Mainnet',
  'eip155:42161': 'Arbitrum One',
  'eip155:137': 'Polygon',
  'eip155:43114': 'Avalanche C-Chain',
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'Solana',
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': 'Solana Devnet',
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'Solana Testnet',
};

/**
 * A readable name for a CAIP-2 network id. The service's local dev chains come first: its Solana dev chain borrows
 * devnet's id, so without the service's word it would be named after the public devnet.
 */
export function networkName(network: string, facts?: Pick<ServiceFacts, 'devChain' | 'solanaDevChain'>): string {
  if (facts?.solanaDevChain?.network === network) return 'local Solana dev chain';
  if (facts?.devChain?.network === network) return 'local anvil dev chain';
  const known = KNOWN_NETWORKS[network];
  if (known) return known;
  const [namespace, reference] = network.split(':');
  if (namespace === 'eip155') return `EVM chain ${reference}`;
  if (namespace === 'solana') return `Solana cluster ${reference}`;
  return network;
}
