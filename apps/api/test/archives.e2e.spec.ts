import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectArchive, writeArchiveSample } from '@fileshift/converters/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyApiClient } from './support/key-api-client.js';
import { type PaidTestApp, startPaidTestApp } from './support/paid-test-app.js';
import { convertFile, jobEnded } from './support/x402-jobs.js';


/** Archives through the whole service: a .tar.gz known by its double extension, each way in, and a hostile zip. */
describe('archives (real service, bsdtar and settlement)', () => {
  let t: PaidTestApp;
  const dir = mkdtempSync(join(tmpdir(), 'fileshift-archives-e2e-'));

  const convert = (fetcher: typeof fetch, file: Buffer, filename: string, target: string) => convertFile(t.baseUrl, fetcher, file, filename, target);

  const saved = (name: string, bytes: Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };

  beforeAll(async () => {
    t = await startPaidTestApp({ payerIndex: 5 });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('key API: a .tar.gz keeps its double extension and converts to a zip holding the same files', async () => {
    const api = keyApiClient(t.baseUrl);
    const tgz = readFileSync(writeArchiveSample('tgz', join(dir, 'site.tar.gz')));
    const { Filename } = (await (await api.upload(tgz, 'site.tar.gz')).json()) as { Filename: string };
    expect(Filename).toMatch(/^[A-Za-z0-9_-]{32}\.tar\.gz$/);
    // ext_in is an extension without a dot (the spec's rule): tgz names the format.
    const converted = await api.post('convert', { filename: Filename, ext_in: 'tgz', ext_out: 'zip' });
    expect(converted.status, await converted.clone().text()).toBe(200);
    const url = ((await converted.json()) as { file: { urls: string[] } }).file.urls[0]!;
    expectArchive(saved('site.zip', Buffer.from(await (await fetch(`${t.baseUrl}${url}`)).arrayBuffer())), 'zip');
    const targets = ((await (await api.post('list_ext_out', { ext_in: 'tgz' })).json()) as { extensions: string[] }).extensions;
    expect(targets).toEqual(expect.arrayContaining(['7z', 'tar', 'tbz2', 'txz', 'zip']));
  });

  it('x402: a backup.tar.gz is read as a tgz by its name and sold as backup.7z; a zip asked for as TXZ as backup.txz', async () => {
    const tgz = readFileSync(writeArchiveSample('tgz', join(dir, 'backup.tar.gz')));
    const sevenZip = await jobEnded(await convert(t.pay, tgz, 'backup.tar.gz', '7z'));
    expect(sevenZip).toMatchObject({ status: 'done', target_format: '7z', detected_input_format: 'tgz' });
    const first = (await (await t.pay(sevenZip.result_url!)).json()) as { download_url: string; filename: string; mime_type: string };
    expect([first.filename, first.mime_type]).toEqual(['backup.7z', 'application/x-7z-compressed']);
    expectArchive(saved('backup.7z', Buffer.from(await (await fetch(first.download_url)).arrayBuffer())), '7z');

    const zip = readFileSync(writeArchiveSample('zip', join(dir, 'backup.zip')));
    const done = await jobEnded(await convert(t.pay, zip, 'backup.zip', 'TXZ'));
    expect(done).toMatchObject({ status: 'done', target_format: 'txz', detected_input_format: 'zip' });
    const purchase = (await (await t.pay(done.result_url!)).json()) as { download_url: string; filename: string; mime_type: string };
    expect([purchase.filename, purchase.mime_type]).toEqual(['backup.txz', 'application/x-xz']);
    expectArchive(saved('backup.txz', Buffer.from(await (await fetch(purchase.download_url)).arrayBuffer())), 'txz');
  });

  it('x402: a zip holding a link to /etc/passwd fails as security_rejected, and its result is never sold', async () => {
    const script = 'import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w") as z:\n    i = zipfile.ZipInfo("passwd"); i.create_system = 3; i.external_attr = 0o120777 << 16\n    z.writestr(i, "/etc/passwd")';
    execFileSync('/usr/bin/python3', ['-c', script, join(dir, 'hostile.zip')]);
    const failed = await jobEnded(await convert(t.pay, readFileSync(join(dir, 'hostile.zip')), 'hostile.zip', 'tgz'));
    expect(failed).toMatchObject({ status: 'failed', failure_type: 'security_rejected' });
    expect(failed.message).toMatch(/symbolic link/);
    const before = await t.chain.usdcBalanceOf(t.chain.payTo);
    expect((await t.pay(`${t.baseUrl}/api/x402/v1/convert-file/${failed.job_id}/result`)).status).toBe(409);
    expect(await t.chain.usdcBalanceOf(t.chain.payTo)).toBe(before);
  });
});
