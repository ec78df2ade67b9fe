import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { expectEbook, expectMarkup, ghostscriptPdf, pdfInfo, pdfPages, pdfText, qpdfEncrypted, SAMPLE_CELLS, SAMPLE_HEADING, sampleDocx, sampleFb2, sampleMobi, sampleXlsx, zipEntries } from '@fileshift/converters/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyApiClient } from './support/key-api-client.js';
import { type PaidTestApp, startPaidTestApp } from './support/paid-test-app.js';
import { convertFile, jobEnded, type X402JobStatus } from './support/x402-jobs.js';
import { didWebVerifier } from './support/did-web-verifier.js';


/**
 * Documents and PDF through the whole service: the warm LibreOffice pool, poppler and Ghostscript behind
 * both APIs, plans of several steps, one file per page, and failures that charge nothing.
 */
describe('documents and PDF (real service, engines and settlement)', () => {
  let t: PaidTestApp;
  const dir = mkdtempSync(join(tmpdir(), 'fileshift-documents-e2e-'));
  const docx = sampleDocx();
  let threePagePdf: Buffer;

  const convert = (fetcher: typeof fetch, file: Buffer, filename: string, target: string, options?: object) => convertFile(t.baseUrl, fetcher, file, filename, target, options);

  async function bought(done: X402JobStatus): Promise<{ filename: string; mime_type: string; bytes: Buffer; deliveryRecord: string }> {
    expect(done.status).toBe('done');
    const purchase = (await (await t.pay(done.result_url!)).json()) as { download_url: string; filename: string; mime_type: string; delivery_record: string };
    const bytes = Buffer.from(await (await fetch(purchase.download_url)).arrayBuffer());
    return { filename: purchase.filename, mime_type: purchase.mime_type, bytes, deliveryRecord: purchase.delivery_record };
  }

  const saved = (name: string, bytes: Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };

  beforeAll(async () => {
    t = await startPaidTestApp({ payerIndex: 5 });
    threePagePdf = readFileSync(ghostscriptPdf(dir, 'three-pages', ['Fileshift page one', 'Fileshift page two', 'Fileshift page three']));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('key API: DOCX → PDF answers with the PDF, its text intact', async () => {
    const api = keyApiClient(t.baseUrl);
    const response = await api.uploadAndConvert(docx, 'report.docx', 'docx', 'pdf');
    expect(response.status).toBe(200);
    const { file } = (await response.json()) as { file: { ext_out: string; urls: string[] } };
    expect(file.ext_out).toBe('pdf');
    expect(file.urls).toHaveLength(1);
    const download = await fetch(`${t.baseUrl}${file.urls[0]}`);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    const pdf = saved('report.pdf', Buffer.from(await download.arrayBuffer()));
    expect(pdfText(pdf)).toContain(SAMPLE_HEADING);
  });

  it('key API: XLSX → JSON keeps the sheet’s numbers as numbers (read by our own package reader, no CSV between)', async () => {
    const api = keyApiClient(t.baseUrl);
    const response = await api.uploadAndConvert(sampleXlsx(), 'sheet.xlsx', 'xlsx', 'json');
    expect(response.status).toBe(200);
    const { file } = (await response.json()) as { file: { urls: string[] } };
    const download = await fetch(`${t.baseUrl}${file.urls[0]}`);
    expect(await download.json()).toEqual([{ [SAMPLE_CELLS[0]]: 1, [SAMPLE_CELLS[1]]: 2 }]);
  });

  it('key API: DOCX → HTML is served as an attachment that a browser would render sandboxed, without scripts', async () => {
    const response = await keyApiClient(t.baseUrl).uploadAndConvert(docx, 'report.docx', 'docx', 'html');
    const { file } = (await response.json()) as { file: { urls: string[] } };
    const download = await fetch(`${t.baseUrl}${file.urls[0]}`);
    expect(download.headers.get('content-type')).toMatch(/^text\/html/);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="report\.html"/);
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    expect(await download.text()).toContain(SAMPLE_HEADING);
  });

  it('x402: a hand-written FictionBook is detected as fb2 and sold as an EPUB (calibre)', async () => {
    const done = await jobEnded(await convert(t.pay, Buffer.from(sampleFb2()), 'novel.fb2', 'epub'));
    expect(done).toMatchObject({ status: 'done', detected_input_format: 'fb2', target_format: 'epub' });
    const { filename, mime_type, bytes } = await bought(done);
    expect([filename, mime_type]).toEqual(['novel.epub', 'application/epub+zip']);
    expectMarkup(saved('novel.epub', bytes), 'epub', SAMPLE_HEADING);
  });

  it('key API: a hand-written MOBI → AZW3 (KF8), read back by our own PalmDB reader', async () => {
    const response = await keyApiClient(t.baseUrl).uploadAndConvert(sampleMobi(), 'book.mobi', 'mobi', 'azw3');
    expect(response.status).toBe(200);
    const { file } = (await response.json()) as { file: { urls: string[] } };
    const download = await fetch(`${t.baseUrl}${file.urls[0]}`);
    expectEbook(saved('book.azw3', Buffer.from(await download.arrayBuffer())), 'azw3', SAMPLE_HEADING);
  });

  it('key API: PDF → PNG lists one URL per page, each that page at the DPI asked for', async () => {
    const api = keyApiClient(t.baseUrl);
    const { Filename } = (await (await api.upload(threePagePdf, 'three-pages.pdf')).json()) as { Filename: string };
    const response = await api.post('convert', { filename: Filename, ext_in: 'pdf', ext_out: 'png', options: { dpi: 36 } });
    expect(response.status).toBe(200);
    const { file } = (await response.json()) as { file: { urls: string[] } };
    expect(file.urls).toHaveLength(3);
    expect(file.urls.every((url) => /^\/tmp\/[^/]+-[123]\.png$/.test(url))).toBe(true);
    for (const url of file.urls) {
      const meta = await sharp(Buffer.from(await (await fetch(`${t.baseUrl}${url}`)).arrayBuffer())).metadata();
      // A Letter/A4 page at 36 dpi: about 300 × 420 pixels.
      expect(meta.format).toBe('png');
      expect(meta.width).toBeGreaterThan(280);
      expect(meta.width).toBeLessThan(320);
    }
  });

  it('key API: the pdfa option makes a PDF/A-2b; a pages option selects the pages', async () => {
    const api = keyApiClient(t.baseUrl);
    const { Filename } = (await (await api.upload(docx, 'report.docx')).json()) as { Filename: string };
    const response = await api.post('convert', { filename: Filename, ext_in: 'docx', ext_out: 'pdf', options: { pdfa: '2b' } });
    const { file } = (await response.json()) as { file: { urls: string[] } };
    const pdf = saved('archival.pdf', Buffer.from(await (await fetch(`${t.baseUrl}${file.urls[0]}`)).arrayBuffer()));
    expect(pdfInfo(pdf, '-meta')).toMatch(/pdfaid:part(>|=")2/);

    const upload = (await (await api.upload(threePagePdf, 'three-pages.pdf')).json()) as { Filename: string };
    const pick = await api.post('convert', { filename: upload.Filename, ext_in: 'pdf', ext_out: 'pdf', options: { pages: '2-3' } });
    expect(pick.status).toBe(200);
    const picked = saved('picked.pdf', Buffer.from(await (await fetch(`${t.baseUrl}${((await pick.json()) as { file: { urls: string[] } }).file.urls[0]}`)).arrayBuffer()));
    expect(pdfPages(picked)).toBe(2);
    expect(pdfText(picked)).not.toContain('page one');
  });

  it('x402: PDF → PNG sells one ZIP of the pages, named by page', async () => {
    const done = await jobEnded(await convert(t.pay, threePagePdf, 'minutes.pdf', 'png', { dpi: 36 }));
    const result = await bought(done);
    expect(result).toMatchObject({ filename: 'minutes.zip', mime_type: 'application/zip' });
    const zip = saved('pages.zip', result.bytes);
    expect(zipEntries(zip)).toEqual(['minutes-001.png', 'minutes-002.png', 'minutes-003.png']);
    const first = execFileSync('unzip', ['-p', zip, 'minutes-001.png']);
    expect((await sharp(first).metadata()).format).toBe('png');
    // The signed delivery record names the ZIP and each page in it by hash.
    const record = await (await didWebVerifier(t.baseUrl)).verify<{ output: { sha256: string; files: Array<{ filename: string; sha256: string; sizeBytes: number }> }; plan: Array<{ engine: string }> }>(result.deliveryRecord);
    const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    expect(record.output.sha256).toBe(sha256(result.bytes));
    expect(record.output.files).toEqual(
      zipEntries(zip).map((name) => {
        const page = execFileSync('unzip', ['-p', zip, name]);
        return { filename: name, sha256: sha256(page), sizeBytes: page.length };
      }),
    );
    expect(record.plan.map((step) => step.engine)).toEqual(['poppler']);
  });

  it('x402: DOCX → PNG runs the two-step plan (LibreOffice, then poppler), recorded with the job', async () => {
    const done = await jobEnded(await convert(t.pay, docx, 'report.docx', 'png'));
    const result = await bought(done);
    // One page: the file itself, not a ZIP.
    expect(result).toMatchObject({ filename: 'report.png', mime_type: 'image/png' });
    expect((await sharp(result.bytes).metadata()).format).toBe('png');
    const [job] = await t.app.get(DataSource).query(`SELECT plan, engine_class FROM conversion_jobs WHERE id = $1`, [done.job_id]);
    expect(job.engine_class).toBe('documents');
    expect(job.plan.steps.map((step: { engine: string; from: string; to: string }) => `${step.engine}:${step.from}→${step.to}`)).toEqual([
      'libreoffice:docx→pdf',
      'poppler:pdf→png',
    ]);
  });

  it('x402: a password-protected PDF fails as security_rejected, and its result is never sold', async () => {
    const locked = readFileSync(qpdfEncrypted(saved('open.pdf', threePagePdf), join(dir, 'locked.pdf'), 'secret'));
    const failed = await jobEnded(await convert(t.pay, locked, 'locked.pdf', 'png'));
    expect(failed).toMatchObject({ status: 'failed', failure_type: 'security_rejected' });
    expect(failed.message).toMatch(/password/i);
    const before = await t.chain.usdcBalanceOf(t.chain.payTo);
    expect((await t.pay(`${t.baseUrl}/api/x402/v1/convert-file/${failed.job_id}/result`)).status).toBe(409);
    expect(await t.chain.usdcBalanceOf(t.chain.payTo)).toBe(before);
  });

  it('advertises the document conversions the live worker can run: list_ext_out, detection, discovery', async () => {
    const api = keyApiClient(t.baseUrl);
    const list = (await (await api.post('list_ext_out', { ext_in: 'docx' })).json()) as { extensions: string[] };
    expect(list.extensions).toEqual(expect.arrayContaining(['pdf', 'odt', 'txt', 'png', 'jpg']));
    const detection = await t.pay(`${t.baseUrl}/api/x402/v1/detect-file-type`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'report.docx', size_bytes: docx.length, header_first_200_bytes_base64: docx.subarray(0, 200).toString('base64') }),
    });
    expect(detection.status).toBe(200);
    expect(((await detection.json()) as { convertible_to: string[] }).convertible_to).toEqual(expect.arrayContaining(['pdf', 'png']));
    const discovery = (await (await fetch(`${t.baseUrl}/.well-known/x402.json`)).json()) as { conversions: { from: Record<string, string[]> } };
    expect(discovery.conversions.from.docx).toEqual(expect.arrayContaining(['pdf', 'png']));
    expect(discovery.conversions.from.pdf).toEqual(expect.arrayContaining(['png', 'jpg', 'txt', 'html']));
  });
});
