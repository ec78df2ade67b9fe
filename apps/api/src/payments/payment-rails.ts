import type { OnModuleDestroy } from '@nestjs/common';
import type { AcceptedPayment } from '@fileshift/x402-nest';
import type { x402ResourceServer } from '@x402/core/server';
import type { PaymentMode } from '../config/app-config.js';
import type { DevChainFacts, SolanaDevChainFacts } from './accepted-payments.js';

/** Dev-only facts shown to newcomers: where the chains are and a funded key on each to pay with. */
export interface DevChainInfo extends DevChainFacts {
  payerAddress: string;
  payerPrivateKey: string;
  solana: SolanaDevChainInfo;
}

/** The Solana dev chain's facts for newcomers, with a funded payer. */
export interface SolanaDevChainInfo extends SolanaDevChainFacts {
  payerAddress: string;
  /** The payer's 64-byte secret key (seed, then public key) as a JSON byte array: solana-keygen's keypair file, createKeyPairSignerFromBytes' input. */
  payerSecretKey: number[];
}

/**
 * Everything payments run on: the accepted networks, the resource server with its facilitator,
 * and in dev mode the local chains (stopped with the application).
 */
export class PaymentRails implements OnModuleDestroy {
  constructor(
    readonly mode: PaymentMode,
    readonly accepts: AcceptedPayment[],
    readonly resourceServer: x402ResourceServer,
    readonly devChain: DevChainInfo | undefined,
    private readonly stop: () => Promise<void> = async () => {},
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }
}
