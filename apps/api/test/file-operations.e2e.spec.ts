import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handPdf, pdfText, writeAudioSample, writeVideoSample } from '@fileshift/converters/testing';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionJob } from '../src/conversion-jobs/conversion-job.entity.js';
import { PaymentRecord } from '../src/payments/payment-record.entity.js';
import { keyApiClient } from './support/key-api-client.js';
import { type PaidTestApp, startPaidTestApp } from './support/paid-test-app.js';
import { convertFile, jobEnded } from './support/x402-jobs.js';

/**
 * File operations as options, through both APIs, each proven by a reader that is not ours (qpdf, pdftotext,
 * exiftool, ffprobe, sharp); and the hostile cases: each a clear error in the documented shape, and no fee for a result.
 */
describe('file operations (real service, engines and settlement)', () => {
  let t: PaidTestApp;
  const dir = mkdtempSync(join(tmpdir(), 'fileshift-operations-'));
  let threePages: Buffer;
  const run = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8' });
  const saved = (bytes: Buffer, name: string) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  const payTo = () => t.chain.usdcBalanceOf(t.chain.payTo);
  const settled = () => t.app.get(DataSource).getRepository(PaymentRecord).countBy({ status: 'settled' });
  const api = () => keyApiClient(t.baseUrl);

  /** x402: the job's result bought and downloaded, with the done status. */
  async function x402Result(file: Buffer, filename: string, target: string, options: object): Promise<{ bytes: Buffer; status: Record<string, unknown> }> {
    const status = await jobEnded(await convertFile(t.baseUrl, t.pay, file, filename, target, options));
    expect(status.status, JSON.stringify(status)).toBe('done');
    const bought = (await (await t.pay(status.result_url!)).json()) as { download_url: string };
    return { bytes: Buffer.from(await (await fetch(bought.download_url)).arrayBuffer()), status: status as unknown as Record<string, unknown> };
  }
  /** Key API: upload, convert with options, download the first URL; the response body too. */
  async function keyResult(file: Buffer, filename: string, extIn: string, extOut: string, options: object): Promise<{ bytes: Buffer; body: { file: { urls: string[]; notes?: string[] } } }> {
    const uploaded = (await (await api().upload(file, filename)).json()) as { Filename: string };
    const response = await api().post('convert', { filename: uploaded.Filename, ext_in: extIn, ext_out: extOut, options });
    const body = (await response.json()) as { file: { urls: string[]; notes?: string[] } };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return { bytes: Buffer.from(await (await fetch(`${t.baseUrl}${body.file.urls[0]}`)).arrayBuffer()), body };
  }
  /** Key API: upload, convert; the refusal. */
  async function keyRefusal(file: Buffer, filename: string, extIn: string, extOut: string, options: object): Promise<{ status: number; message: string }> {
    const uploaded = (await (await api().upload(file, filename)).json()) as { Filename: string };
    const response = await api().post('convert', { filename: uploaded.Filename, ext_in: extIn, ext_out: extOut, options });
    return { status: response.status, message: ((await response.json()) as { Message: string }).Message };
  }

  beforeAll(async () => {
    t = await startPaidTestApp({ payerIndex: 5 });
    threePages = readFileSync(handPdf(dir, 'three', ['Page one words', 'Page two words', 'Page three words']));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('PDF: rotate some pages (x402), protect with AES-256 and open again (key API), as qpdf reads them', async () => {
    const rotated = saved((await x402Result(threePages, 'three.pdf', 'pdf', { rotate: 90, rotate_pages: '2' })).bytes, 'rotated.pdf');
    expect(run('qpdf', ['--show-npages', rotated]).trim()).toBe('3');
    // pdfinfo reads each page's rotation.
    expect([...run('pdfinfo', ['-f', '1', '-l', '3', rotated]).matchAll(/^Page\s+\d+ rot:\s+(\d+)/gm)].map((m) => Number(m[1]))).toEqual([0, 90, 0]);

    const locked = saved((await keyResult(threePages, 'three.pdf', 'pdf', 'pdf', { password: { user: 'open sesame', owner: 'owner words' } })).bytes, 'locked.pdf');
    const encryption = run('qpdf', ['--password=open sesame', '--show-encryption', locked]);
    expect(encryption).toMatch(/R = 6/);
    expect(encryption).toMatch(/AESv3/);
    expect(() => run('qpdf', ['--check', locked])).toThrow();

    const opened = saved((await keyResult(readFileSync(locked), 'locked.pdf', 'pdf', 'pdf', { decrypt: 'open sesame' })).bytes, 'opened.pdf');
    expect(run('qpdf', ['--show-encryption', opened])).toMatch(/File is not encrypted/);
    expect(pdfText(opened)).toContain('Page three words');
  }, 120_000);

  it('PDF: a wrong password, or none, is a clear refusal: the key API answers 422, x402 fails the job and sells no result', async () => {
    const locked = run('qpdf', ['--encrypt', 'right one', 'right one', '256', '--', join(dir, 'three.pdf'), join(dir, 'locked-in-test.pdf')]) === '' ? readFileSync(join(dir, 'locked-in-test.pdf')) : Buffer.alloc(0);
    const wrong = await keyRefusal(locked, 'locked.pdf', 'pdf', 'pdf', { decrypt: 'wrong one' });
    expect(wrong.status).toBe(422);
    expect(wrong.message).toMatch(/password does not open this PDF/i);
    expect(wrong.message).not.toContain('wrong one');

    const before = await payTo();
    const failed = await jobEnded(await convertFile(t.baseUrl, t.pay, locked, 'locked.pdf', 'pdf', { rotate: 180 }));
    expect(failed).toMatchObject({ status: 'failed', failure_type: 'security_rejected' });
    expect(failed.message).toMatch(/password-protected: give its password with the decrypt option/);
    // Only the job fee moved; the result is not for sale.
    expect((await payTo()) - before).toBe(2000n);
    expect((await t.pay(`${t.baseUrl}/api/x402/v1/convert-file/${failed.job_id}/result`)).status).toBe(409);
    // The password the caller sent is not kept once its job ended.
  }, 120_000);

  it('PDF: a stamp on some pages is found by pdftotext on those pages only; a split makes a ZIP of parts', async () => {
    const stamped = saved((await keyResult(threePages, 'three.pdf', 'pdf', 'pdf', { stamp: { text: 'DRAFT COPY', pages: '1,3' } })).bytes, 'stamped.pdf');
    const onPage = (page: number) => run('pdftotext', ['-f', String(page), '-l', String(page), stamped, '-']);
    expect([onPage(1), onPage(2), onPage(3)].map((text) => text.includes('DRAFT COPY'))).toEqual([true, false, true]);

    const parts = saved((await x402Result(threePages, 'three.pdf', 'zip', { split: { ranges: '1-2,3' } })).bytes, 'parts.zip');
    const names = run('unzip', ['-Z1', parts]).split('\n').filter(Boolean);
    expect(names).toHaveLength(2);
    const counts = names.map((name) => {
      writeFileSync(join(dir, name), execFileSync('unzip', ['-p', parts, name]));
      return run('qpdf', ['--show-npages', join(dir, name)]).trim();
    });
    expect(counts).toEqual(['2', '1']);
  }, 120_000);

  it('pictures: strip_metadata removes GPS and says so (x402); crop and grayscale (key API)', async () => {
    const photoPath = saved(await sharp({ create: { width: 320, height: 240, channels: 3, background: '#3080c0' } }).jpeg().toBuffer(), 'photo.jpg');
    run('exiftool', ['-q', '-overwrite_original', '-GPSLatitude=48.8584', '-GPSLatitudeRef=N', '-GPSLongitude=2.2945', '-GPSLongitudeRef=E', '-Make=FileshiftCam', photoPath]);
    expect(run('exiftool', ['-G1', '-a', '-s', photoPath])).toMatch(/GPSLatitude/);
    const { bytes, status } = await x402Result(readFileSync(photoPath), 'photo.jpg', 'jpg', { strip_metadata: true });
    const stripped = saved(bytes, 'stripped.jpg');
    const tags = run('exiftool', ['-G1', '-a', '-s', stripped]);
    expect(tags).not.toMatch(/GPS/);
    expect(tags).not.toMatch(/FileshiftCam/);
    expect((status['notes'] as string[]).join(' ')).toMatch(/GPS/);

    const cropped = (await keyResult(readFileSync(photoPath), 'photo.jpg', 'jpg', 'png', { crop: { left: 10, top: 20, width: 100, height: 50 }, grayscale: true })).bytes;
    const { data, info } = await sharp(cropped).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([100, 50]);
    for (let i = 0; i < data.length; i += info.channels) if (info.channels >= 3) expect(data[i]).toBe(data[i + 1]);
  }, 120_000);

  it('sound and video: trim (ffprobe reads the length), a still at a time (key API, x402)', async () => {
    const song = readFileSync(writeAudioSample('mp3', join(dir, 'song.mp3'), { seconds: 6 }));
    const trimmed = saved((await keyResult(song, 'song.mp3', 'mp3', 'mp3', { trim: { start: 1, end: 3.5 } })).bytes, 'trimmed.mp3');
    const seconds = Number(run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', trimmed]).trim());
    expect(Math.abs(seconds - 2.5)).toBeLessThan(0.06);

    const video = readFileSync(writeVideoSample('mp4', join(dir, 'clip.mp4'), { seconds: 3 }));
    const still = (await x402Result(video, 'clip.mp4', 'png', { frame: 1.5 })).bytes;
    expect(await sharp(still).metadata()).toMatchObject({ format: 'png', width: 160, height: 120 });
  }, 120_000);

  it('hostile: a 1 MB stamp text is refused before any fee; an encrypted PDF without a password, a looping page tree and a trim past the end fail clearly', async () => {
    const [balance, settledBefore] = [await payTo(), await settled()];
    const huge = await convertFile(t.baseUrl, t.pay, threePages, 'three.pdf', 'pdf', { stamp: { text: 'x'.repeat(1024 * 1024) } });
    // The options part is a form field: 1 MB of it is refused as the field it is, before any challenge.
    expect([413, 422]).toContain(huge.status);
    const refusal = (await huge.json()) as { error: { code: string; message: string } };
    expect(refusal.error.code).toBeTruthy();
    expect(await payTo()).toBe(balance);
    expect(await settled()).toBe(settledBefore);
    const longText = await keyRefusal(threePages, 'three.pdf', 'pdf', 'pdf', { stamp: { text: 'x'.repeat(5000) } });
    expect(longText.status).toBe(400);
    expect(longText.message).toMatch(/options\.stamp/);

    const locked = readFileSync(join(dir, 'locked-in-test.pdf'));
    const noPassword = await keyRefusal(locked, 'locked.pdf', 'pdf', 'pdf', { stamp: { text: 'DRAFT' } });
    expect(noPassword.status).toBe(422);
    expect(noPassword.message).toMatch(/password/i);

    const looping = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
        '3 0 obj << /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    );
    const loop = await keyRefusal(looping, 'loop.pdf', 'pdf', 'pdf', { rotate: 90 });
    expect(loop.status).toBe(422);
    expect(loop.message).toMatch(/unsupported_or_corrupt_input/);

    const song = readFileSync(join(dir, 'song.mp3'));
    const pastEnd = await keyRefusal(song, 'song.mp3', 'mp3', 'mp3', { trim: { start: 40 } });
    expect(pastEnd.status).toBe(422);
    expect(pastEnd.message).toMatch(/after the end/);
  }, 120_000);

  it('keeps no password once its job ended', async () => {
    const jobs = await t.app.get(DataSource).getRepository(ConversionJob).find();
    const withSecrets = jobs.filter((job) => (job.status === 'done' || job.status === 'failed') && JSON.stringify(job.options).match(/open sesame|wrong one|right one/));
    expect(withSecrets).toEqual([]);
    expect(jobs.some((job) => JSON.stringify(job.dedupeKey ?? '').includes('open sesame'))).toBe(false);
  });
});
