import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordVerifier, VerificationError, verifyWebhookDelivery } from '../src/index.js';

// A service's did.json served over real HTTP, and deliveries signed as docs/webhooks.md says the service signs them.
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
let server: Server;
let baseUrl: string;
let kid: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url !== '/.well-known/did.json') return void response.writeHead(404).end();
    const did = `did:web:${request.headers.host!.replace(':', '%3A')}`;
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({ id: did, verificationMethod: [{ id: `${did}#key-1`, type: 'JsonWebKey2020', controller: did, publicKeyJwk: publicKey.export({ format: 'jwk' }) }], assertionMethod: [`${did}#key-1`] }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  kid = `did:web:127.0.0.1%3A${port}#key-1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function delivery({ jobId = 'job_1', at = Date.now(), key = privateKey, body }: { jobId?: string; at?: number; key?: KeyObject; body?: string } = {}) {
  const id = `evt_${jobId}_done`;
  const text = body ?? JSON.stringify({ id, type: 'conversion.done', created_at: new Date(at).toISOString(), data: { job_id: jobId, status: 'done' } });
  const timestamp = String(Math.floor(at / 1000));
  const signature = sign(null, Buffer.from(`${id}.${timestamp}.${text}`), key).toString('base64');
  return { body: text, headers: { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1a,${signature}`, 'fileshift-signature-key': kid } };
}

const verifier = () => recordVerifier(baseUrl, globalThis.fetch);

describe('verifyWebhookDelivery', () => {
  it('returns the event of a delivery signed with the key the service publishes', async () => {
    const event = await verifyWebhookDelivery(verifier(), delivery(), { jobId: 'job_1' });
    expect(event).toMatchObject({ id: 'evt_job_1_done', type: 'conversion.done', data: { job_id: 'job_1', status: 'done' } });
  });

  it('takes Fetch Headers and a byte body as well', async () => {
    const { body, headers } = delivery();
    const event = await verifyWebhookDelivery(verifier(), { body: new TextEncoder().encode(body), headers: new Headers(headers) });
    expect(event.data.job_id).toBe('job_1');
  });

  it('refuses an altered body, another key, a stale delivery, another job and a missing header', async () => {
    const signed = delivery();
    const refusals = [
      () => verifyWebhookDelivery(verifier(), { ...signed, body: signed.body.replace('"done"}', '"failed"}') }),
      () => verifyWebhookDelivery(verifier(), delivery({ key: other.privateKey })),
      () => verifyWebhookDelivery(verifier(), delivery({ at: Date.now() - 600_000 })),
      () => verifyWebhookDelivery(verifier(), delivery({ jobId: 'job_2' }), { jobId: 'job_1' }),
      () => verifyWebhookDelivery(verifier(), { ...signed, headers: { ...signed.headers, 'webhook-signature': undefined } }),
      () => verifyWebhookDelivery(verifier(), { ...signed, headers: { ...signed.headers, 'fileshift-signature-key': `${kid}x` } }),
    ];
    for (const refusal of refusals) await expect(refusal()).rejects.toBeInstanceOf(VerificationError);
  });

  it('refuses a body whose event id is not the signed one', async () => {
    const at = Date.now();
    const body = JSON.stringify({ id: 'evt_other', type: 'conversion.done', created_at: new Date(at).toISOString(), data: { job_id: 'job_1', status: 'done' } });
    await expect(verifyWebhookDelivery(verifier(), delivery({ at, body }))).rejects.toThrow(/evt_other/);
  });
});
