import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ReceiptSigner } from '../payments/receipts/receipt-signer.js';
import { type EndedJob, webhookEventOf } from './webhook-event.js';
import { signedWebhookHeaders } from './webhook-signature.js';

const endedJob = (overrides: Partial<EndedJob>): EndedJob => ({
  id: 'job_abcdefghijklmnopqrstuvwxyz012345',
  origin: 'x402',
  status: 'done',
  detectedInputFormat: 'wav',
  targetFormat: 'flac',
  failureType: null,
  failureMessage: null,
  finishedAt: new Date('2026-11-01T10:00:05Z'),
  updatedAt: new Date('2026-11-01T10:00:05Z'),
  ...overrides,
});

describe('webhook events and their signature', () => {
  const signer = new ReceiptSigner(generateKeyPairSync('ed25519').privateKey);
  const serviceUrl = 'http://files.example.com:8080';

  it('signs "<webhook-id>.<webhook-timestamp>.<body>" with the key did.json publishes, named by its verificationMethod id', () => {
    const event = webhookEventOf(endedJob({}), serviceUrl);
    const body = JSON.stringify(event);
    const headers = signedWebhookHeaders({ id: event.id, timestampSeconds: 1_790_000_000, body, keyId: signer.keyIdFor(serviceUrl), sign: (bytes) => signer.signBytes(bytes) });

    const [method] = signer.didDocument(serviceUrl).verificationMethod;
    expect(headers['fileshift-signature-key']).toBe(method!.id);
    expect(headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': event.id, 'webhook-timestamp': '1790000000' });
    const [version, signature] = headers['webhook-signature']!.split(',');
    expect(version).toBe('v1a');
    const publicKey = createPublicKey({ key: method!.publicKeyJwk, format: 'jwk' });
    const signed = (text: string) => Buffer.from(`${event.id}.1790000000.${text}`);
    expect(verify(null, signed(body), publicKey, Buffer.from(signature!, 'base64'))).toBe(true);
    // Another body, or another timestamp, does not verify.
    expect(verify(null, signed(body.replace('flac', 'mp3_')), publicKey, Buffer.from(signature!, 'base64'))).toBe(false);
    expect(verify(null, Buffer.from(`${event.id}.1790000001.${body}`), publicKey, Buffer.from(signature!, 'base64'))).toBe(false);
  });

  it('makes an event that is the same in every attempt: the job’s facts, and for x402 its status and result links', () => {
    const done = webhookEventOf(endedJob({}), serviceUrl);
    expect(done).toEqual({
      id: 'evt_job_abcdefghijklmnopqrstuvwxyz012345_done',
      type: 'conversion.done',
      created_at: '2026-11-01T10:00:05.000Z',
      data: {
        job_id: 'job_abcdefghijklmnopqrstuvwxyz012345',
        status: 'done',
        api: 'x402',
        detected_input_format: 'wav',
        target_format: 'flac',
        status_url: `${serviceUrl}/api/x402/v1/convert-file/job_abcdefghijklmnopqrstuvwxyz012345/status`,
        result_url: `${serviceUrl}/api/x402/v1/convert-file/job_abcdefghijklmnopqrstuvwxyz012345/result`,
      },
    });
    expect(JSON.stringify(webhookEventOf(endedJob({}), serviceUrl))).toBe(JSON.stringify(done));

    const failed = webhookEventOf(endedJob({ origin: 'key_api', status: 'failed', failureType: 'timeout', failureMessage: 'Too slow.' }), serviceUrl);
    expect(failed).toMatchObject({ id: 'evt_job_abcdefghijklmnopqrstuvwxyz012345_failed', type: 'conversion.failed' });
    // The key API has no status endpoint: no links.
    expect(failed.data).toEqual({ job_id: 'job_abcdefghijklmnopqrstuvwxyz012345', status: 'failed', api: 'key_api', detected_input_format: 'wav', target_format: 'flac', failure_type: 'timeout', message: 'Too slow.' });
  });
});
