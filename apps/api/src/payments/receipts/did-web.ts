import { createHash } from 'node:crypto';

/** An Ed25519 public key as a JWK. */
export interface Ed25519PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
}

/**
 * Pure: the did:web of the host a service answers at (`did:web:api.example.com`, `did:web:localhost%3A3000`). Read
 * without URL parsing: a request's Host header may be anything, and whatever it was, it is named, never refused.
 */
export function didWebOf(url: string): string {
  const host = /^[a-z][a-z\d+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
  return `did:web:${encodeURIComponent(host.toLowerCase())}`;
}

/** Pure: the key's name within the DID document: its RFC 7638 thumbprint, so that a new key is a new name. */
export function keyFragmentOf(jwk: Ed25519PublicJwk): string {
  // The thumbprint hashes the required members in lexicographic order, without whitespace.
  return createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x })).digest('base64url');
}

/** Pure: the DID document (`/.well-known/did.json`) publishing the key that signs offers, receipts and delivery records. */
export function didDocument(did: string, jwk: Ed25519PublicJwk) {
  const keyId = `${did}#${keyFragmentOf(jwk)}`;
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    verificationMethod: [{ id: keyId, type: 'JsonWebKey2020', controller: did, publicKeyJwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x } }],
    assertionMethod: [keyId],
  };
}
