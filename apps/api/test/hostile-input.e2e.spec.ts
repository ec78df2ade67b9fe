import { DevChain } from '@fileshift/devchain';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyApiClient } from './support/key-api-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { decodeBase64Json, encodeBase64Json, payingFetch, signedPayment } from './support/x402-payer.js';
import type { PaymentRequired } from '@x402/core/types';

/**
 * 100 bytes that show no format to the detector (only a name could vouch for them). Fixed, not random: about
 * one in twenty random buffers happens to look like text or to carry a short signature, which made these tests flaky.
 */
const SIGNATURELESS_BYTES = Buffer.from(Array.from({ length: 100 }, (_, i) => (i * 167 + 13) & 0xff));

/**
 * Regressions of the attack run (issue 13, items 10, 11 and 13): each answer is a 4xx in the documented
 * shape, never a 5xx, and nothing is charged for a request that could not succeed.
 */
describe('hostile input through the real service (dev chain, PostgreSQL, Redis)', () => {
  let chain: DevChain;
  let t: TestApp;
  let pay: typeof fetch;
  let png: Buffer;

  const form = (file: Buffer, fields: Record<string, string | number>, partFilename = 'file') => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, String(value));
    body.append('file', new Blob([file], { type: 'application/octet-stream' }), partFilename);
    return body;
  };
  const convertFields = (file: Buffer, filename: string, target = 'webp') => ({ target_format: target, filename, created_at: '2026-11-01T10:00:00Z', size_bytes: file.length });
  const convert = (fetcher: typeof fetch, file: Buffer, fields: Record<string, string | number>) =>
    fetcher(`${t.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body: form(file, fields) });
  const payTo = () => chain.usdcBalanceOf(chain.payTo);
  const ledgerRows = async () => Number((await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM payment_records'))[0].n);

  beforeAll(async () => {
    chain = await DevChain.start();
    t = await startTestApp({ DEVCHAIN_RPC_URL: chain.rpcUrl });
    pay = payingFetch(chain, privateKeyToAccount(chain.payerPrivateKeys[1]!));
    png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00ff00' } }).png().toBuffer();
  });
  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });

  describe('item 13: no fee for a conversion that cannot succeed (the evidence rule)', () => {
    it('100 random bytes named picture.png: 422 naming the file, before any challenge, nothing charged', async () => {
      const before = await payTo();
      const random = SIGNATURELESS_BYTES;
      // No payment header: a request that may be challenged would get 402 here.
      const response = await convert(fetch, random, convertFields(random, 'picture.png'));
      expect(response.status).toBe(422);
      expect(response.headers.get('payment-required')).toBeNull();
      const body = (await response.json()) as { error: { code: string; message: string; details: { fields: Array<{ field: string }> } } };
      expect(body.error.code).toBe('validation_error');
      expect(body.error.details.fields[0]!.field).toBe('file');
      expect(body.error.message).toMatch(/Its name says png, but the bytes do not show a png file/);
      // The paying client never pays for it either.
      expect((await convert(pay, random, convertFields(random, 'picture.png'))).status).toBe(422);
      expect(await payTo()).toBe(before);
    });

    it('text named .png and bytes of a format no engine reads are refused the same way; a PNG named .gif is converted from what it is', async () => {
      const text = Buffer.from('Just a few words in a plain text file, nothing more.\n');
      expect((await convert(fetch, text, convertFields(text, 'photo.png'))).status).toBe(422);
      const pdf = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1');
      const refused = await convert(fetch, pdf, convertFields(pdf, 'doc.pdf'));
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/no engine here reads pdf|cannot be converted to webp/);
      const misnamed = await convert(fetch, png, convertFields(png, 'really-a-png.gif'));
      expect(misnamed.status).toBe(402);
    });

    it('the key API refuses the same upload at convert with 400, before any job', async () => {
      const api = keyApiClient(t.baseUrl);
      const random = SIGNATURELESS_BYTES;
      const { Filename } = (await (await api.upload(random, 'picture.png')).json()) as { Filename: string };
      const response = await api.post('convert', { filename: Filename, ext_in: 'png', ext_out: 'webp' });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ Status: 'Error', Message: expect.stringMatching(/show no format this service knows/) });
      expect(Number((await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM conversion_jobs WHERE original_filename = 'picture.png'`))[0].n)).toBe(0);
    });
  });

  describe('item 11: control characters in file names', () => {
    it('x402: a NUL or a line break in filename is 422 before any challenge, on convert and on detect', async () => {
      for (const filename of ['a\u0000b.png', 'line\nbreak.png', 'bell\u0007.png', 'c1\u0085.png']) {
        const response = await convert(fetch, png, convertFields(png, filename));
        expect(response.status, JSON.stringify(filename)).toBe(422);
        expect(response.headers.get('payment-required')).toBeNull();
        const body = (await response.json()) as { error: { code: string; details: { fields: Array<{ field: string }> } } };
        expect(body.error).toMatchObject({ code: 'validation_error', details: { fields: [{ field: 'filename' }] } });
      }
      const detect = await fetch(`${t.baseUrl}/api/x402/v1/detect-file-type`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'a\u0000.png', size_bytes: png.length, header_first_200_bytes_base64: png.subarray(0, 200).toString('base64') }),
      });
      expect(detect.status).toBe(422);
    });

    it('key API: the part file name is a hint, cleaned of control characters; the upload converts and downloads under the clean name', async () => {
      const api = keyApiClient(t.baseUrl);
      // Written by hand: fetch's FormData would percent-encode the control characters itself.
      const boundary = 'hostile-boundary';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="evil\u0000name\u0007\u0085.png"\r\nContent-Type: image/png\r\n\r\n`, 'utf8'),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const upload = await fetch(`${t.baseUrl}/api/v1/upload`, { method: 'POST', body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      expect(upload.status).toBe(200);
      const { Filename } = (await upload.json()) as { Filename: string };
      expect(Filename).toMatch(/^[A-Za-z0-9_-]{32}\.png$/);
      const converted = (await (await api.post('convert', { filename: Filename, ext_in: 'png', ext_out: 'webp' })).json()) as { file: { urls: string[] } };
      const download = await fetch(`${t.baseUrl}${converted.file.urls[0]}`);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toContain('filename="evilname.webp"');
    });
  });

  describe('item 10: a malformed payment header is a refusal (402 with a reason), not an outage', () => {
    async function challenge(): Promise<PaymentRequired> {
      const response = await convert(fetch, png, convertFields(png, 'p.png'));
      expect(response.status).toBe(402);
      return decodeBase64Json<PaymentRequired>(response.headers.get('payment-required'));
    }
    const withPayment = (header: string, value: unknown) =>
      fetch(`${t.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body: form(png, convertFields(png, 'p.png')), headers: { [header]: encodeBase64Json(value) } });

    it('payload {} or a bad authorization, accepted without network, in either header: 402 naming the field; nothing recorded or charged', async () => {
      const { accepts } = await challenge();
      const accepted = accepts[0]!;
      const good = await signedPayment(privateKeyToAccount(chain.payerPrivateKeys[2]!), accepted);
      const { network: _network, ...noNetwork } = accepted;
      const cases: Array<[unknown, RegExp]> = [
        [{ x402Version: 2, accepted, payload: {} }, /payload\.signature/],
        [{ ...good, payload: { ...good.payload, authorization: { ...(good.payload.authorization as object), value: '1e400' } } }, /authorization\.value/],
        [{ ...good, payload: { ...good.payload, authorization: { ...(good.payload.authorization as object), nonce: 'nope' } } }, /authorization\.nonce/],
        [{ ...good, accepted: noNetwork }, /accepted\.network/],
      ];
      const [before, rows] = [await payTo(), await ledgerRows()];
      for (const header of ['payment-signature', 'x-payment']) {
        for (const [payment, reason] of cases) {
          const response = await withPayment(header, payment);
          expect(response.status, `${header} ${reason}`).toBe(402);
          expect(response.headers.get('retry-after')).toBeNull();
          expect(decodeBase64Json<PaymentRequired>(response.headers.get('payment-required')).error).toMatch(reason);
        }
      }
      expect(await payTo()).toBe(before);
      expect(await ledgerRows()).toBe(rows);
    });
  });
});
