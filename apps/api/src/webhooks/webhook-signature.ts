/** Signs bytes with the service's Ed25519 key (ReceiptSigner.signBytes). */
export type SignBytes = (bytes: Uint8Array) => Uint8Array;

/**
 * Pure: the headers of one delivery attempt, in the asymmetric form of Standard Webhooks (standardwebhooks.com):
 * `webhook-signature` is `v1a,` and the base64 Ed25519 signature of `<webhook-id>.<webhook-timestamp>.<body>`;
 * `fileshift-signature-key` names the key in the service's /.well-known/did.json that verifies it.
 */
export function signedWebhookHeaders(args: { id: string; timestampSeconds: number; body: string; keyId: string; sign: SignBytes }): Record<string, string> {
  const signed = Buffer.from(`${args.id}.${args.timestampSeconds}.${args.body}`, 'utf8');
  return {
    'content-type': 'application/json',
    'webhook-id': args.id,
    'webhook-timestamp': String(args.timestampSeconds),
    'webhook-signature': `v1a,${Buffer.from(args.sign(signed)).toString('base64')}`,
    'fileshift-signature-key': args.keyId,
  };
}
