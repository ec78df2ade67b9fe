import { FacilitatorResponseError, type FacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';

export type FacilitatorBehaviour = 'accept' | 'refuse' | 'unreachable' | 'throw';

/** A facilitator whose answers a test chooses, counting what it was asked. */
export class FakeFacilitator implements FacilitatorClient {
  verifyWith: FacilitatorBehaviour = 'accept';
  settleWith: FacilitatorBehaviour = 'accept';
  readonly verified: PaymentPayload[] = [];
  readonly settled: PaymentPayload[] = [];
  private transactions = 0;

  constructor(readonly network: string) {}

  async getSupported(): Promise<SupportedResponse> {
    return { kinds: [{ x402Version: 2, scheme: 'exact', network: this.network as `${string}:${string}` }], extensions: [], signers: {} };
  }

  async verify(payload: PaymentPayload, _requirements: PaymentRequirements): Promise<VerifyResponse> {
    this.verified.push(payload);
    this.failAs(this.verifyWith);
    if (this.verifyWith === 'refuse') return { isValid: false, invalidReason: 'invalid_exact_evm_payload_signature', payer: payerOf(payload) };
    return { isValid: true, payer: payerOf(payload) };
  }

  async settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    this.settled.push(payload);
    this.failAs(this.settleWith);
    if (this.settleWith === 'refuse') {
      // A facilitator's message may quote its libraries' internals: never for the client.
      return { success: false, errorReason: 'insufficient_funds', errorMessage: 'execution reverted; URL: http://10.0.0.7:8545', transaction: '', network: requirements.network, payer: payerOf(payload) };
    }
    const transaction = `0x${(++this.transactions).toString(16).padStart(64, '0')}`;
    return { success: true, transaction, network: requirements.network, payer: payerOf(payload) };
  }

  private failAs(behaviour: FacilitatorBehaviour): void {
    if (behaviour === 'unreachable') throw new FacilitatorResponseError('facilitator unreachable: fetch failed');
    if (behaviour === 'throw') throw new Error('facilitator crashed');
  }
}

function payerOf(payload: PaymentPayload): string | undefined {
  return (payload.payload as { authorization?: { from?: string } }).authorization?.from;
}
