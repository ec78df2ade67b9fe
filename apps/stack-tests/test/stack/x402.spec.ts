import { tinyPng, toneWav } from '@fileshift/testing';
import { describe, expect, it } from 'vitest';
import { canPay, detectRequest, payingClient, runPaid, stack } from '../support/stack-target.js';

const isWebp = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 4)).toString() === 'RIFF' && Buffer.from(bytes.subarray(8, 12)).toString() === 'WEBP';
const isMp3 = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 3)).toString() === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0);
const isPdf = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 5)).toString() === '%PDF-';
const x402 = `${stack.baseUrl}/api/x402/v1`;

describe('x402 API on the stack', () => {
  it('asks for a payment before detecting: 402 with the challenge in PAYMENT-REQUIRED', async () => {
    const response = await fetch(`${x402}/detect-file-type`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(detectRequest) });
    expect(response.status).toBe(402);
    const challenge = JSON.parse(Buffer.from(response.headers.get('payment-required')!, 'base64').toString('utf8')) as { accepts: Array<{ amount: string }> };
    expect(challenge.accepts.length).toBeGreaterThan(0);
    expect(challenge.accepts[0]!.amount).toBe('2000');
  });

  it('refuses a conversion that cannot succeed before asking for any payment', async () => {
    const form = new FormData();
    form.set('file', new Blob([Buffer.from(tinyPng())], { type: 'application/octet-stream' }), 'dot.png');
    form.set('target_format', 'nosuchformat');
    form.set('filename', 'dot.png');
    form.set('created_at', new Date().toISOString());
    form.set('size_bytes', String(tinyPng().length));
    const response = await fetch(`${x402}/convert-file`, { method: 'POST', body: form });
    expect(response.status).toBe(422);
    expect(response.headers.get('payment-required')).toBeNull();
    expect(await response.json()).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
  });

  it('an unknown job is 404 in the error shape', async () => {
    const response = await fetch(`${x402}/convert-file/job_${'x'.repeat(24)}/status`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: expect.any(String) } });
  });

  describe.skipIf(!runPaid)('paid (a payer is known: the dev chain\'s, or STACK_PAYER_KEY)', () => {
    it('has a payer', () => {
      expect(canPay, 'no payer: the stack is not in dev mode and STACK_PAYER_KEY is not set').toBe(true);
    });

    it('detects a file, paid and settled', async () => {
      const detected = await (await payingClient()).detectFile({ data: tinyPng(), filename: 'dot.png' });
      expect(detected.detected_format?.format).toBe('png');
      expect(detected.receipt?.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    });

    // One conversion per engine class: each runs on a worker, its files pass through the object store.
    it.each([
      { input: { data: tinyPng(), filename: 'dot.png' }, target: 'webp' as const, check: isWebp },
      { input: { data: toneWav(1), filename: 'tone.wav' }, target: 'mp3' as const, check: isMp3 },
      { input: { data: new TextEncoder().encode('Fileshift stack test\n\nA paragraph.\n'), filename: 'note.txt' }, target: 'pdf' as const, check: isPdf },
    ])('converts $input.filename to $target: job fee, polling, result bought, file downloaded', async ({ input, target, check }) => {
      const converted = await (await payingClient()).convertFile({ input, targetFormat: target });
      expect(check(converted.data)).toBe(true);
      expect(converted.receipts).toHaveLength(2);
      expect(converted.resultPayment).toMatchObject({ protocol: 'x402', amount: { atomic_units: '20000' } });
    });
  });
});
