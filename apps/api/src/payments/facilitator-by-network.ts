import type { FacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';

/**
 * One facilitator seen through a client per network family: each payment goes to the client of its network
 * (Solana or EVM), so that each is guarded by a probe of its own chain — a stopped Solana chain makes a Solana
 * payment our outage (503, nothing charged) without touching EVM payments, and the other way round. The clients
 * wrap the same facilitator, so its supported kinds are asked through either.
 */
export class FacilitatorByNetwork implements FacilitatorClient {
  constructor(
    private readonly evm: FacilitatorClient,
    private readonly solana: FacilitatorClient,
  ) {}

  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    return this.clientOf(requirements).verify(payload, requirements);
  }

  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    return this.clientOf(requirements).settle(payload, requirements);
  }

  getSupported(): Promise<SupportedResponse> {
    return this.evm.getSupported();
  }

  private clientOf(requirements: PaymentRequirements): FacilitatorClient {
    return String(requirements.network).startsWith('solana:') ? this.solana : this.evm;
  }
}
