import { generateKeyPairSync } from 'node:crypto';
import { calculateJwkThumbprint, compactVerify, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { didWebOf, keyFragmentOf } from './did-web.js';
import { ReceiptSigner } from './receipt-signer.js';
import { loadSigningKey, parseSigningKey } from './signing-key.js';

describe('receipt signing', () => {
  it('names a service by the did:web of its host (port encoded, path and scheme left out)', () => {
    expect(didWebOf('https://api.example.com')).toBe('did:web:api.example.com');
    expect(didWebOf('http://127.0.0.1:3000/')).toBe('did:web:127.0.0.1%3A3000');
    expect(didWebOf('https://example.com/fileshift')).toBe('did:web:example.com');
    // Whatever a Host header held, it is named, never a failure.
    expect(didWebOf('http://x:y:z/api/x402/v1/detect-file-type')).toBe('did:web:x%3Ay%3Az');
    expect(didWebOf('http://A B/x')).toBe('did:web:a%20b');
  });

  it('names its key by the RFC 7638 thumbprint, as jose computes it', async () => {
    const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as { kty: 'OKP'; crv: 'Ed25519'; x: string };
    expect(keyFragmentOf(jwk)).toBe(await calculateJwkThumbprint(jwk, 'sha256'));
  });

  it('takes a PEM (on one line with \\n too) or a JWK; refuses other keys', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    for (const text of [pem, pem.trim().replace(/\n/g, '\\n'), JSON.stringify(privateKey.export({ format: 'jwk' }))]) {
      expect(parseSigningKey(text).export({ format: 'jwk' })).toEqual(privateKey.export({ format: 'jwk' }));
    }
    expect(() => parseSigningKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string)).toThrow(/Ed25519/);
  });

  it('in dev mode derives one key from the public anvil test key: every dev process signs alike; a configured key wins', () => {
    const dev = loadSigningKey(undefined);
    expect(dev.asymmetricKeyType).toBe('ed25519');
    expect(loadSigningKey(undefined).export({ format: 'jwk' })).toEqual(dev.export({ format: 'jwk' }));
    const configured = generateKeyPairSync('ed25519').privateKey;
    expect(loadSigningKey(configured.export({ format: 'pem', type: 'pkcs8' }) as string).export({ format: 'jwk' })).toEqual(configured.export({ format: 'jwk' }));
  });

  it('signs records that verify against the key its DID document publishes, under the kid the document names', async () => {
    const signer = new ReceiptSigner(generateKeyPairSync('ed25519').privateKey);
    const jws = await signer.signRecord({ b: 2, a: 1 }, 'http://localhost:8080/x');
    const document = signer.didDocument('http://localhost:8080');
    const [method] = document.verificationMethod;
    const { payload, protectedHeader } = await compactVerify(jws, await importJWK(method!.publicKeyJwk, 'EdDSA'));
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: method!.id });
    expect(document.assertionMethod).toEqual([method!.id]);
    // The payload in its canonical form (RFC 8785): keys sorted.
    expect(new TextDecoder().decode(payload)).toBe('{"a":1,"b":2}');
    // With a public base URL, every signature names its host, whatever a request was addressed to.
    const behindProxy = new ReceiptSigner(generateKeyPairSync('ed25519').privateKey, 'https://files.example.com');
    expect(behindProxy.didFor('http://10.0.0.5:3000/api')).toBe('did:web:files.example.com');
  });
});
