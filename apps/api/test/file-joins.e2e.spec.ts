import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handPdf, pdfPages, pdfText, sampleDocx } from '@fileshift/converters/testing';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentRecord } from '../src/payments/payment-record.entity.js';
import { keyApiClient } from './support/key-api-client.js';
import { type PaidTestApp, startPaidTestApp } from './support/paid-test-app.js';
import { jobEnded } from './support/x402-jobs.js';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

/** Several files in one job, through both APIs: merged PDFs, pictures into a PDF, documents into a PDF, files into an archive. */
describe('jobs of several files (real service, engines and settlement)', () => {
  let t: PaidTestApp;
  const dir = mkdtempSync(join(tmpdir(), 'fileshift-joins-'));
  let twoPages: Buffer;
  let threePages: Buffer;
  let photo: Buffer;
  let drawing: Buffer;
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const payTo = () => t.chain.usdcBalanceOf(t.chain.payTo);
  const records = () => t.app.get(DataSource).getRepository(PaymentRecord);

  /** x402 convert-file with one `file` part per member, in order; size_bytes their total unless given. */
  const convertFiles = (fetcher: typeof fetch, files: ReadonlyArray<[Buffer, string]>, target: string, sizeBytes?: number) => {
    const body = new FormData();
    const total = files.reduce((sum, [bytes]) => sum + bytes.length, 0);
    for (const [name, value] of Object.entries({ target_format: target, filename: 'joined', created_at: '2026-11-01T10:00:00Z', size_bytes: sizeBytes ?? total })) body.append(name, String(value));
    for (const [bytes, name] of files) body.append('file', new Blob([bytes], { type: 'application/octet-stream' }), name);
    return fetcher(`${t.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body });
  };
  /** The bought result of a done job, with what its status said. */
  async function bought(accepted: Response): Promise<{ bytes: Buffer; status: Record<string, unknown>; purchase: { payment?: { amount: { atomic_units: string } } } }> {
    const status = await jobEnded(accepted);
    expect(status.status, JSON.stringify(status)).toBe('done');
    const purchase = (await (await t.pay(status.result_url!)).json()) as { download_url: string; payment?: { amount: { atomic_units: string } } };
    return { bytes: Buffer.from(await (await fetch(purchase.download_url)).arrayBuffer()), status: status as unknown as Record<string, unknown>, purchase };
  }
  const saved = (bytes: Buffer, name: string) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  /** Runs `work` and asserts it moved no money and settled no payment. */
  async function withoutFee(work: () => Promise<Response>): Promise<{ response: Response; body: ErrorBody }> {
    const [balance, settled] = [await payTo(), await records().countBy({ status: 'settled' })];
    const response = await work();
    const body = (await response.json()) as ErrorBody;
    expect(await payTo()).toBe(balance);
    expect(await records().countBy({ status: 'settled' })).toBe(settled);
    return { response, body };
  }

  beforeAll(async () => {
    t = await startPaidTestApp({ payerIndex: 6 });
    twoPages = readFileSync(handPdf(dir, 'two', ['Alpha page one', 'Alpha page two']));
    threePages = readFileSync(handPdf(dir, 'three', ['Beta page one', 'Beta page two', 'Beta page three']));
    photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c04020' } }).jpeg().toBuffer();
    drawing = await sharp({ create: { width: 120, height: 240, channels: 4, background: '#2040c0ff' } }).png().toBuffer();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('x402: merges PDFs in order into one PDF, priced as one job by their total size, the delivery naming each file', async () => {
    const { bytes, status, purchase } = await bought(await convertFiles(t.pay, [[twoPages, 'a.pdf'], [threePages, 'b.pdf']], 'pdf'));
    const merged = saved(bytes, 'merged.pdf');
    // qpdf and poppler, not ours, read the merge: five pages, the first file's first.
    expect(execFileSync('qpdf', ['--show-npages', merged], { encoding: 'utf8' }).trim()).toBe('5');
    const text = pdfText(merged);
    expect(text.indexOf('Alpha page one')).toBeGreaterThanOrEqual(0);
    expect(text.indexOf('Beta page three')).toBeGreaterThan(text.indexOf('Alpha page two'));
    expect(status).toMatchObject({ input_files: 2, input_file_size_bytes: twoPages.length + threePages.length, detected_input_format: 'pdf' });
    expect(purchase.payment?.amount.atomic_units).toBe('20000');
  });

  it('x402: pictures into one PDF, a page each; documents into one PDF, each converted then joined', async () => {
    const pictures = saved((await bought(await convertFiles(t.pay, [[photo, 'photo.jpg'], [drawing, 'drawing.png']], 'pdf'))).bytes, 'pictures.pdf');
    expect(pdfPages(pictures)).toBe(2);
    // Each page has its picture's shape: landscape, then portrait.
    const sizes = [...execFileSync('pdfinfo', ['-f', '1', '-l', '2', pictures], { encoding: 'utf8' }).matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/g)].map((m) => Number(m[1]) > Number(m[2]));
    expect(sizes).toEqual([true, false]);

    const docx = sampleDocx(['Gamma written in Word']);
    const mixed = saved((await bought(await convertFiles(t.pay, [[docx, 'letter.docx'], [twoPages, 'a.pdf']], 'pdf'))).bytes, 'mixed.pdf');
    const text = pdfText(mixed);
    expect(text).toContain('Gamma written in Word');
    expect(text.indexOf('Alpha page two')).toBeGreaterThan(text.indexOf('Gamma written in Word'));
  }, 120_000);

  it('key API: any files into a zip under their upload names, bytes unchanged, through join', async () => {
    const api = keyApiClient(t.baseUrl);
    const names: string[] = [];
    for (const [bytes, name] of [[photo, 'photo.jpg'], [twoPages, 'a.pdf'], [Buffer.from('plain words\n'), 'notes.txt']] as const) {
      names.push(((await (await api.upload(bytes, name)).json()) as { Filename: string }).Filename);
    }
    const response = await api.post('convert', { filename: names[0], ext_in: 'jpg', ext_out: 'zip', join: names.slice(1) });
    const body = (await response.json()) as { file: { urls: string[] } };
    expect(response.status, JSON.stringify(body)).toBe(200);
    const zip = saved(Buffer.from(await (await fetch(`${t.baseUrl}${body.file.urls[0]}`)).arrayBuffer()), 'files.zip');
    expect(execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean).sort()).toEqual(['a.pdf', 'notes.txt', 'photo.jpg']);
    expect(sha256(execFileSync('unzip', ['-p', zip, 'photo.jpg']))).toBe(sha256(photo));
    expect(sha256(execFileSync('unzip', ['-p', zip, 'a.pdf']))).toBe(sha256(twoPages));
  });

  it('refuses a member no join takes before any fee, naming the member; and on the key API', async () => {
    const sound = Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0]), Buffer.alloc(200, 1)]);
    const { response, body } = await withoutFee(() => convertFiles(t.pay, [[twoPages, 'a.pdf'], [sound, 'song.mp3']], 'pdf'));
    expect(response.status).toBe(422);
    expect(body.error.message).toMatch(/File 2 \(song\.mp3\) is mp3, which cannot be joined into pdf/);
    expect(body.error.details).toMatchObject({ member: 2, filename: 'song.mp3' });
    // Nothing joins into docx: the target is what cannot be.
    const target = await withoutFee(() => convertFiles(t.pay, [[twoPages, 'a.pdf'], [threePages, 'b.pdf']], 'docx'));
    expect(target.response.status).toBe(422);
    expect(target.body.error.message).toMatch(/target_format: Files are not joined into docx here; several files join into .*pdf.*zip/);

    const api = keyApiClient(t.baseUrl);
    const first = ((await (await api.upload(twoPages, 'a.pdf')).json()) as { Filename: string }).Filename;
    const second = ((await (await api.upload(sound, 'song.mp3')).json()) as { Filename: string }).Filename;
    const refused = await api.post('convert', { filename: first, ext_in: 'pdf', ext_out: 'pdf', join: [second] });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { Message: string }).Message).toMatch(/File 2 \(song\.mp3\)/);
  });

  it('refuses more files than a job takes, and files that each fit but add up past the limit, before any fee', async () => {
    const tiny = readFileSync(handPdf(dir, 'tiny', ['one']));
    const many = Array.from({ length: 51 }, (_, i): [Buffer, string] => [tiny, `page-${i}.pdf`]);
    const tooMany = await withoutFee(() => convertFiles(t.pay, many, 'pdf'));
    expect(tooMany.response.status).toBe(413);
    expect(tooMany.body.error.message).toBe('At most 50 files are taken in one job.');

    const half = Buffer.alloc(22 * 1024 * 1024, 7);
    const together = await withoutFee(() => convertFiles(t.pay, [[half, 'a.bin'], [half, 'b.bin']], 'zip', 40 * 1024 * 1024));
    expect(together.response.status).toBe(413);
    expect(together.body.error.message).toMatch(/The files together exceed the maximum upload size of 41943040 bytes/);
  });

  it('refuses options a join does not take, before any fee', async () => {
    const body = new FormData();
    for (const [name, value] of Object.entries({ target_format: 'pdf', filename: 'joined', created_at: '2026-11-01T10:00:00Z', size_bytes: twoPages.length * 2, options: '{"compress":"screen"}' })) body.append(name, String(value));
    for (const name of ['a.pdf', 'b.pdf']) body.append('file', new Blob([twoPages]), name);
    const refused = await withoutFee(() => t.pay(`${t.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body }));
    expect(refused.response.status).toBe(422);
    expect(refused.body.error.message).toMatch(/compress/);
  });
});
