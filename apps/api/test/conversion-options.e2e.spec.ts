import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdfText } from '@fileshift/converters/testing';
import { DevChain } from '@fileshift/devchain';
import sharp from 'sharp';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyApiClient } from './support/key-api-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { payingFetch } from './support/x402-payer.js';

/** Conversion options through both APIs: checked against the conversion before payment, honoured by the engine. */
describe('conversion options (real service, engines and settlement)', () => {
  let chain: DevChain;
  let t: TestApp;
  let pay: typeof fetch;
  let png: Buffer;

  const form = (options: unknown) => {
    const body = new FormData();
    for (const [name, value] of Object.entries({ target_format: 'jpg', filename: 'photo.png', created_at: '2026-11-01T10:00:00Z', size_bytes: png.length })) body.append(name, String(value));
    if (options !== undefined) body.append('options', typeof options === 'string' ? options : JSON.stringify(options));
    body.append('file', new Blob([png], { type: 'application/octet-stream' }), 'photo.png');
    return body;
  };
  const convert = (fetcher: typeof fetch, options: unknown, headers: Record<string, string> = {}) =>
    fetcher(`${t.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body: form(options), headers });

  async function result(statusUrl: string): Promise<Buffer> {
    for (;;) {
      const status = (await (await fetch(statusUrl)).json()) as { status: string; result_url?: string };
      if (status.status === 'failed') throw new Error(JSON.stringify(status));
      if (status.status === 'done') {
        const bought = (await (await pay(status.result_url!)).json()) as { download_url: string };
        return Buffer.from(await (await fetch(bought.download_url)).arrayBuffer());
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    chain = await DevChain.start();
    t = await startTestApp({ DEVCHAIN_RPC_URL: chain.rpcUrl });
    pay = payingFetch(chain, privateKeyToAccount(chain.payerPrivateKeys[4]!));
    png = await sharp({ create: { width: 200, height: 100, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 50 }, background: '#000' } }).png().toBuffer();
  });
  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });

  /** A picture of printed words (librsvg draws the SVG's text with the installed fonts). */
  const textPicture = (lines: readonly string[]) =>
    sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="${80 + lines.length * 60}"><rect width="100%" height="100%" fill="#fff"/>` +
          lines.map((line, i) => `<text x="40" y="${80 + i * 60}" font-family="DejaVu Serif" font-size="36" fill="#000">${line}</text>`).join('') +
          '</svg>',
      ),
    )
      .png()
      .toBuffer();

  it('x402: the options part is honoured (quality, width) and part of the job', async () => {
    const small = await convert(pay, { quality: 20, width: 50 });
    expect(small.status).toBe(202);
    const bytes = await result(((await small.json()) as { status_url: string }).status_url);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 50, height: 25 });
  });

  it('x402: options that do not apply, values out of range and malformed JSON are 422 before any challenge, naming what applies', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ dpi: 100 }, /options\.dpi: does not apply here; this conversion takes quality, width, height, fit/],
      [{ quality: 500 }, /options\.quality: .*an integer from 1 to 100/],
      [{ fit: 'stretch' }, /one of cover, contain, fill, inside, outside/],
      [{ colour: 'red' }, /options\.colour: is not an option/],
      ['{quality: 5', /options: must be a JSON object/],
      [[1, 2], /options: must be a JSON object/],
    ];
    for (const [options, message] of cases) {
      const response = await convert(fetch, options);
      expect(response.status, JSON.stringify(options)).toBe(422);
      expect(response.headers.get('payment-required')).toBeNull();
      expect(((await response.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(message) });
    }
  });

  it('x402: the same Idempotency-Key with other options is another request (409)', async () => {
    const headers = { 'Idempotency-Key': 'options-key-0001' };
    expect((await convert(pay, { quality: 50 }, headers)).status).toBe(202);
    expect((await convert(fetch, { quality: 50 }, headers)).status).toBe(202);
    expect((await convert(fetch, { quality: 51 }, headers)).status).toBe(409);
  });

  it('key API: an options object, checked (400) and honoured; other options make another conversion of the same upload', async () => {
    const api = keyApiClient(t.baseUrl);
    const { Filename } = (await (await api.upload(png, 'photo.png')).json()) as { Filename: string };
    const bad = await api.post('convert', { filename: Filename, ext_in: 'png', ext_out: 'webp', options: { pdfa: '2b' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ Status: 'Error', Message: expect.stringMatching(/options\.pdfa: does not apply here; this conversion takes quality, width, height, fit/) });
    const typo = await api.post('convert', { filename: Filename, ext_in: 'png', ext_out: 'webp', options: { quality: 'high' } });
    expect(typo.status).toBe(400);
    // A misspelt name is refused by the conversion's own check, naming the options it takes.
    const misspelt = await api.post('convert', { filename: Filename, ext_in: 'png', ext_out: 'webp', options: { qualty: 50 } });
    expect(misspelt.status).toBe(400);
    expect(await misspelt.json()).toEqual({ Status: 'Error', Message: expect.stringMatching(/options\.qualty: is not an option; this conversion takes quality, width, height, fit/) });

    const urlsOf = async (options: Record<string, unknown>) =>
      ((await (await api.post('convert', { filename: Filename, ext_in: 'png', ext_out: 'webp', options })).json()) as { file: { urls: string[] } }).file.urls;
    const [narrow] = await urlsOf({ width: 40 });
    const [wide] = await urlsOf({ width: 120 });
    expect(narrow).not.toBe(wide);
    const widthOf = async (url: string) => (await sharp(Buffer.from(await (await fetch(`${t.baseUrl}${url}`)).arrayBuffer())).metadata()).width;
    expect([await widthOf(narrow!), await widthOf(wide!)]).toEqual([40, 120]);
    expect(await urlsOf({ width: 40 })).toEqual([narrow]);
  });

  it('key API: OCR of a picture to text and to a searchable PDF (ocr), in the languages asked; an unknown language is refused naming those read', async () => {
    const api = keyApiClient(t.baseUrl);
    const picture = await textPicture(['Invoice number 4711 from Berlin', 'Total due: 1,250.00 EUR']);
    const { Filename } = (await (await api.upload(picture, 'scan.png')).json()) as { Filename: string };
    const fetchText = async (url: string) => Buffer.from(await (await fetch(`${t.baseUrl}${url}`)).arrayBuffer());
    const converted = async (ext_out: string, options?: Record<string, unknown>) => {
      const response = await api.post('convert', { filename: Filename, ext_in: 'png', ext_out, ...(options ? { options } : {}) });
      expect(response.status, JSON.stringify(options)).toBe(200);
      return fetchText(((await response.json()) as { file: { urls: string[] } }).file.urls[0]!);
    };
    expect((await converted('txt', { languages: ['en'] })).toString('utf8')).toMatch(/Invoice number 4711 from Berlin\s+Total due: 1,250\.00 EUR/);
    // Without `ocr` a picture's PDF is img2pdf's (no text); with it, tesseract's: the picture with its words under it.
    const plain = await converted('pdf');
    const searchable = await converted('pdf', { ocr: true });
    const textOf = (pdf: Buffer) => {
      const path = join(mkdtempSync(join(tmpdir(), 'fileshift-ocr-')), 'out.pdf');
      writeFileSync(path, pdf);
      return pdfText(path).replace(/\s+/g, ' ');
    };
    expect(textOf(plain)).not.toMatch(/Invoice/);
    expect(textOf(searchable)).toMatch(/Invoice number 4711/);
    const unknown = await api.post('convert', { filename: Filename, ext_in: 'png', ext_out: 'txt', options: { languages: ['xx'] } });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { Message: string }).Message).toMatch(/options\.languages.*\ben\b.*\bde\b.*\bja\b.*\bko\b/);
  });

  it('x402: a picture without words to text fails "no text" and nothing is charged for it', async () => {
    const blank = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#fff' } }).png().toBuffer();
    const body = new FormData();
    for (const [name, value] of Object.entries({ target_format: 'txt', filename: 'blank.png', created_at: '2026-11-01T10:00:00Z', size_bytes: blank.length })) body.append(name, String(value));
    body.append('file', new Blob([blank], { type: 'application/octet-stream' }), 'blank.png');
    const started = await pay(`${t.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body });
    expect(started.status).toBe(202);
    const { status_url } = (await started.json()) as { status_url: string };
    let status: { status: string; failure_type?: string; message?: string; charged_amount?: { atomic_units: string | number } };
    do status = (await (await fetch(`${status_url}?wait=10`)).json()) as typeof status;
    while (status.status !== 'done' && status.status !== 'failed');
    expect(status).toMatchObject({ status: 'failed', failure_type: 'unsupported_or_corrupt_input', message: expect.stringMatching(/no text/) });
    expect(Number(status.charged_amount?.atomic_units ?? 0)).toBe(0);
  });
});
