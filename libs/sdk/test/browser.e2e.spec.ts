import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LiveService, startLiveService } from '@fileshift/testing';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = 'chromium';
const PAGE_ENTRY = fileURLToPath(new URL('./browser/page.ts', import.meta.url));

interface Report {
  ok: boolean;
  error?: string;
  result?: {
    userAgent: string;
    detected: string | null;
    detectionReceipt: string | null;
    converted: { filename: string; mimeType: string; sizeBytes: number; head: string };
    receipts: Array<string | null>;
    spent: string;
  };
}

/**
 * The SDK as a web page uses it: its built ESM bundled for browsers (esbuild, as an app's bundler would),
 * served from another origin than the service's, run by a real headless Chromium (Debian's `chromium`),
 * paying on the service's dev chain. The page posts what happened back to the server that served it.
 */
describe('the SDK in a real browser (Chromium, cross-origin, paying on the dev chain)', () => {
  let service: LiveService;
  let page: Server;
  let browser: ChildProcess | undefined;
  let profile: string;
  let report: Promise<Report>;

  beforeAll(async () => {
    const version = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' });
    if (version.status !== 0) console.error(`\n*** BROWSER MISSING: ${CHROMIUM} (install the Debian package chromium); this test FAILS without it. ***\n`);
    service = await startLiveService();
    const bundle = await build({ entryPoints: [PAGE_ENTRY], bundle: true, platform: 'browser', format: 'esm', target: 'es2022', write: false, logLevel: 'silent' });
    const script = bundle.outputFiles[0]!.text;
    let deliver: (report: Report) => void;
    report = new Promise((resolve) => (deliver = resolve));
    page = createServer((request, response) => {
      if (request.method === 'POST' && request.url === '/report') {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          response.end();
          deliver(JSON.parse(body) as Report);
        });
      } else if (request.url === '/page.js') {
        response.setHeader('Content-Type', 'text/javascript');
        response.end(script);
      } else {
        response.setHeader('Content-Type', 'text/html');
        response.end('<!DOCTYPE html><html><head><meta charset="utf-8"><script type="module" src="/page.js"></script></head><body></body></html>');
      }
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    profile = mkdtempSync(join(tmpdir(), 'fileshift-chromium-'));
  }, 180_000);

  afterAll(async () => {
    browser?.kill('SIGKILL');
    await new Promise((resolve) => page?.close(resolve));
    await service?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('detects and converts a PNG the browser drew, paying both calls, the receipts readable across origins', async () => {
    const { port } = page.address() as AddressInfo;
    const settings = { baseUrl: service.baseUrl, network: service.devChain.network, usdc: service.devChain.usdc, accountIndex: 8 };
    // The page's server and the service listen on different ports: different origins, so every call is a CORS call.
    expect(new URL(service.baseUrl).port).not.toBe(String(port));
    // --no-sandbox: the test runs as root here, where Chromium's sandbox cannot start; the page is our own.
    browser = spawn(CHROMIUM, ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${profile}`, '--enable-logging=stderr', `http://127.0.0.1:${port}/#${encodeURIComponent(JSON.stringify(settings))}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    // The page's console (a CORS refusal shows only there), for the failure message.
    const pageConsole: string[] = [];
    browser.stderr!.setEncoding('utf8').on('data', (chunk: string) => pageConsole.push(...chunk.split('\n').filter((line) => line.includes(':CONSOLE')).map((line) => line.slice(0, 400))));
    const timeout = new Promise<Report>((_, reject) => setTimeout(() => reject(new Error('the page reported nothing within 120 s')), 120_000));
    const { ok, error, result } = await Promise.race([report, timeout]);
    expect(error, pageConsole.join('\n')).toBeUndefined();
    expect(ok).toBe(true);
    expect(result!.userAgent).toMatch(/HeadlessChrome/);
    expect(result!.detected).toBe('png');
    expect(result!.detectionReceipt).toBe('2000');
    expect(result!.converted).toMatchObject({ filename: 'drawn in the browser.webp', mimeType: 'image/webp' });
    expect(result!.converted.head.slice(0, 4) + result!.converted.head.slice(8, 12)).toBe('RIFFWEBP');
    expect(result!.receipts).toEqual(['2000', '20000']);
    expect(result!.spent).toBe('24000');
  }, 180_000);
});
