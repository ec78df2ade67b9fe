import { type KeyObject, sign } from 'node:crypto';
import { createJWS, createOfferJWS, createReceiptJWS, type JWSSigner, type OfferReceiptIssuer } from '@x402/extensions/offer-receipt';
import { didDocument, didWebOf, type Ed25519PublicJwk, keyFragmentOf } from './did-web.js';

/**
 * Signs what the service vouches for — x402 offers and receipts, and delivery records — as compact JWS (EdDSA, the
 * payload in JCS form) under a did:web key id. The did names the host: PUBLIC_BASE_URL's when set, else the one each
 * request was addressed to, which is where `/.well-known/did.json` publishes the key.
 */
export class ReceiptSigner {
  readonly publicJwk: Ed25519PublicJwk;
  private readonly fragment: string;

  constructor(
    private readonly privateKey: KeyObject,
    private readonly publicBaseUrl?: string,
  ) {
    const { kty, crv, x } = privateKey.export({ format: 'jwk' }) as Ed25519PublicJwk;
    this.publicJwk = { kty, crv, x };
    this.fragment = keyFragmentOf(this.publicJwk);
  }

  /** The did of a service reached at `url`. */
  didFor(url: string): string {
    return didWebOf(this.publicBaseUrl ?? url);
  }

  /** The DID document a service reached at `baseUrl` publishes. */
  didDocument(baseUrl: string) {
    return didDocument(this.didFor(baseUrl), this.publicJwk);
  }

  /** The id of the key (its did.json verificationMethod) signatures made for the service reached at `url` name. */
  keyIdFor(url: string): string {
    return `${this.didFor(url)}#${this.fragment}`;
  }

  /** A bare Ed25519 signature of `bytes`: what a webhook's Standard Webhooks signature (v1a) holds. */
  signBytes(bytes: Uint8Array): Buffer {
    return sign(null, bytes, this.privateKey);
  }

  /** Signs `payload` (JCS) for the service reached at `url`. */
  signRecord(payload: object, url: string): Promise<string> {
    return createJWS(payload, this.jwsSigner(url));
  }

  /** x402 `offer-receipt`: each offer and receipt signed with the key of the resource's host. */
  readonly issuer: OfferReceiptIssuer = {
    // Informative only: each signature's kid names the did of its resource's host.
    kid: 'did:web',
    format: 'jws',
    issueOffer: (resourceUrl, input) => createOfferJWS(resourceUrl, input, this.jwsSigner(resourceUrl)),
    issueReceipt: (resourceUrl, payer, network, transaction) => createReceiptJWS({ resourceUrl, payer, network, ...(transaction ? { transaction } : {}) }, this.jwsSigner(resourceUrl)),
  };

  private jwsSigner(url: string): JWSSigner {
    return {
      kid: this.keyIdFor(url),
      format: 'jws',
      algorithm: 'EdDSA',
      sign: async (input) => sign(null, input, this.privateKey).toString('base64url'),
    };
  }
}
