import { compactVerify, importJWK, type JWK } from 'jose';

interface DidDocument {
  id: string;
  verificationMethod: Array<{ id: string; publicKeyJwk: JWK }>;
  assertionMethod: string[];
}

/**
 * Verifies compact JWS against a service's `/.well-known/did.json` with `jose` alone — what any client can do, with
 * none of our code: the kid must name a key of that document, the signature must hold, and the payload is returned.
 */
export async function didWebVerifier(baseUrl: string) {
  const document = (await (await fetch(`${baseUrl}/.well-known/did.json`)).json()) as DidDocument;
  return {
    document,
    async verify<T>(jws: string): Promise<T> {
      const { kid } = JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString()) as { kid: string };
      const method = document.verificationMethod.find((candidate) => candidate.id === kid && document.assertionMethod.includes(kid));
      if (!method) throw new Error(`kid ${kid} is not an assertion key of ${document.id}`);
      const { payload } = await compactVerify(jws, await importJWK(method.publicKeyJwk, 'EdDSA'));
      return JSON.parse(Buffer.from(payload).toString()) as T;
    },
  };
}
