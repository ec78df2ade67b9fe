import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LiveService, startLiveService, textPdf } from '@fileshift/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type ConversionOptions, createClient, type JobStatus, parseUsdc, type PayerOptions, SpendLimitError } from '../src/index.js';
import { anvilPayerAccount, countingSigner, devChainPayer, recordingFetch, usdcBalanceOf } from './support/dev-chain.js';

const JOB_FEE = 2_000n;
const RESULT_PRICE = 20_000n;

/** Several files in one job and operations as options, through the SDK against the live service on its dev chain (real settlement). */
describe('file operations: joins and options (live service, dev chain)', () => {
  const account = anvilPayerAccount(9);
  const alpha = { data: textPdf(['Alpha page one', 'Alpha page two']), filename: 'alpha.pdf' };
  const beta = { data: textPdf(['Beta page one', 'Beta page two', 'Beta page three']), filename: 'beta.pdf' };
  let service: LiveService;
  let dir: string;
  let payerBalance: () => Promise<bigint>;

  beforeAll(async () => {
    service = await startLiveService();
    dir = mkdtempSync(join(tmpdir(), 'sdk-file-operations-'));
    const balanceOf = usdcBalanceOf(service.devChain);
    payerBalance = () => balanceOf(account.address);
  });
  afterAll(async () => {
    await service?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A paying client whose requests and signatures are recorded. */
  const clientWith = (limits: Partial<PayerOptions> = {}) => {
    const recorder = recordingFetch();
    const signer = countingSigner(account);
    const payer = devChainPayer(service.devChain, signer.account, limits);
    return { client: createClient({ baseUrl: service.baseUrl, payer, fetch: recorder.fetch }), payer, signed: () => recorder.requests.filter((request) => request.signed), signatures: signer.signatures };
  };
  const saved = (bytes: Uint8Array, name: string) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  // Readers that are not ours: qpdf counts the pages, poppler reads the text and the pages' rotation.
  const pageCount = (path: string) => Number(execFileSync('qpdf', ['--show-npages', path], { encoding: 'utf8' }).trim());
  const pdfText = (path: string) => execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
  const rotations = (path: string) => [...execFileSync('pdfinfo', ['-f', '1', '-l', '99', path], { encoding: 'utf8' }).matchAll(/Page\s+\d+ rot:\s+(\d+)/g)].map((match) => Number(match[1]));

  it('convertFile({files}) merges two PDFs in order into one, paying one job fee and one result priced by their total size', async () => {
    const { client } = clientWith();
    const before = await payerBalance();
    const statuses: JobStatus[] = [];
    const converted = await client.convertFile({ files: [alpha, beta], filename: 'report.pdf', targetFormat: 'pdf', onProgress: (status) => statuses.push(status) });
    const merged = saved(converted.data, 'merged.pdf');
    expect(pageCount(merged)).toBe(5);
    const text = pdfText(merged);
    expect(text.indexOf('Alpha page one')).toBeGreaterThanOrEqual(0);
    expect(text.indexOf('Beta page three')).toBeGreaterThan(text.indexOf('Alpha page two'));
    expect(converted).toMatchObject({ filename: 'report.pdf', mimeType: 'application/pdf', sizeBytes: converted.data.length });
    expect(converted.receipts.map((receipt) => receipt.amount)).toEqual([JOB_FEE.toString(), RESULT_PRICE.toString()]);
    expect(statuses.at(-1)).toMatchObject({ status: 'done', input_files: 2, input_file_size_bytes: alpha.data.length + beta.data.length });
    // The signed record names the joined input by its total size.
    expect(converted.deliveryRecord?.input.sizeBytes).toBe(alpha.data.length + beta.data.length);
    expect(await payerBalance()).toBe(before - JOB_FEE - RESULT_PRICE);
  });

  it('the spend plan counts the files together: two that each fit the small tier are planned (and refused) at the large one, nothing signed', async () => {
    const { client, signatures, signed } = clientWith({ budget: parseUsdc('0.03') });
    const sixMiB = new Uint8Array(6 * 1024 * 1024);
    const error = await client.convertFile({ files: [{ data: sixMiB, filename: 'a.bin' }, { data: sixMiB, filename: 'b.bin' }], targetFormat: 'zip' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpendLimitError);
    expect((error as SpendLimitError).limit).toBe('budget');
    expect((error as Error).message).toContain(`Join 2 files (${2 * sixMiB.length} bytes together) into zip, named a.bin: job fee 0.002 + result 0.04 = 0.042 USDC at most`);
    expect(signatures()).toBe(0);
    expect(signed()).toEqual([]);
  });

  it('a join of one file is refused before anything is sent', async () => {
    const { client, signatures } = clientWith();
    await expect(client.convertFile({ files: [alpha], targetFormat: 'pdf' })).rejects.toThrow('A join takes 2 to 50 files; 1 were given.');
    expect(signatures()).toBe(0);
  });

  it('operations are typed options: rotate turns the pages named; a rotation the service does not take does not compile, and is refused before any payment', async () => {
    const { client } = clientWith();
    const options: ConversionOptions = { rotate: 90, rotate_pages: '2' };
    const turned = saved((await client.convertFile({ input: alpha, targetFormat: 'pdf', options })).data, 'turned.pdf');
    expect(rotations(turned)).toEqual([0, 90]);

    // @ts-expect-error 45 is not a rotation ConversionOptions allows (90, 180 or 270)
    const notARotation: ConversionOptions = { rotate: 45 };
    const before = await payerBalance();
    const refused = await client.convertFile({ input: alpha, targetFormat: 'pdf', options: notARotation }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(422);
    expect((refused as ApiError).message).toMatch(/rotate/);
    expect(await payerBalance()).toBe(before);
  });

  it('key API: convert({join}) merges uploads in order', async () => {
    const client = createClient({ baseUrl: service.baseUrl, apiKey: service.createApiKey('file-operations') });
    const [first, second] = [await client.upload(alpha), await client.upload(beta)];
    const { urls } = await client.convert({ filename: first, extIn: 'pdf', extOut: 'pdf', join: [second] });
    expect(urls).toHaveLength(1);
    const merged = saved(new Uint8Array(await (await fetch(urls[0]!)).arrayBuffer()), 'key-merged.pdf');
    expect(pageCount(merged)).toBe(5);
    expect(pdfText(merged).indexOf('Beta page one')).toBeGreaterThan(pdfText(merged).indexOf('Alpha page two'));
  });
});
