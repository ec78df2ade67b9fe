/** The key that signs webhook events: the service's did:web key (payments/receipts' ReceiptSigner), bound by the composition root. */
export const WEBHOOK_SIGNER = Symbol('WEBHOOK_SIGNER');

export interface WebhookSigner {
  /** The id of the key (its /.well-known/did.json verificationMethod) for the service reached at `serviceUrl`. */
  keyIdFor(serviceUrl: string): string;
  /** A bare Ed25519 signature of `bytes`. */
  signBytes(bytes: Uint8Array): Uint8Array;
}
