// Runs in a real browser (bundled by browser.e2e.spec.ts from the SDK's built ESM): a paid detection and a
// paid conversion of a PNG the browser draws itself, then the facts are posted back to the page's server.
import { mnemonicToAccount } from 'viem/accounts';
import { createClient, createPayer, parseUsdc } from '../../dist/esm/index.js';

interface PageSettings {
  baseUrl: string;
  network: string;
  usdc: `0x${string}`;
  /** anvil's public test mnemonic account (dev chain only). */
  accountIndex: number;
}

async function drawPng(): Promise<File> {
  const canvas = new OffscreenCanvas(64, 48);
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#2a6';
  context.fillRect(0, 0, 64, 48);
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  return new File([blob], 'drawn in the browser.png', { type: 'image/png', lastModified: Date.UTC(2026, 10, 1) });
}

async function run(settings: PageSettings) {
  const account = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: settings.accountIndex });
  const payer = createPayer({ account, allow: [{ network: settings.network, asset: settings.usdc }], maxPerPayment: parseUsdc('0.05'), budget: parseUsdc('0.1') });
  const client = createClient({ baseUrl: settings.baseUrl, payer });
  const png = await drawPng();
  const detected = await client.detectFile(png);
  const converted = await client.convertFile({ input: png, targetFormat: 'webp' });
  const head = converted.data.subarray(0, 12);
  return {
    userAgent: navigator.userAgent,
    detected: detected.detected_format?.format ?? null,
    detectionReceipt: detected.receipt?.amount ?? null,
    converted: { filename: converted.filename, mimeType: converted.mimeType, sizeBytes: converted.sizeBytes, head: String.fromCharCode(...head) },
    receipts: converted.receipts.map((receipt) => receipt.amount ?? null),
    spent: payer.spent().toString(),
  };
}

const settings = JSON.parse(decodeURIComponent(location.hash.slice(1))) as PageSettings;
run(settings).then(
  (result) => fetch('/report', { method: 'POST', body: JSON.stringify({ ok: true, result }) }),
  (error: unknown) => fetch('/report', { method: 'POST', body: JSON.stringify({ ok: false, error: String((error as Error)?.stack ?? error) }) }),
);
