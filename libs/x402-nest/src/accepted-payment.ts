/** One way this server accepts payment: a scheme on a network, in an asset, to an address. */
export interface AcceptedPayment {
  scheme: 'exact';
  /** CAIP-2, e.g. `eip155:8453`, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`. */
  network: string;
  /** Token contract address (EVM) or mint (SVM). */
  asset: string;
  payTo: string;
  maxTimeoutSeconds?: number;
  /** Scheme-specific facts, e.g. the EIP-712 domain `{name, version}` of an EIP-3009 token. */
  extra?: Record<string, unknown>;
}
