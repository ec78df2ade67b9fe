/**
 * A 40 MB upload to POST /api/x402/v1/convert-file: peak RSS growth of the API process (target
 * ≤ 64 MB) and upload throughput on loopback, beside the same bytes POSTed to a bare Node HTTP server
 * that discards them, in the same run. The upload is unpaid: it is streamed, validated, answered 402
 * and deleted — the memory path is the same as a paid one.
 *   npm run build && node --import tsx bench/upload-memory.ts   (needs Redis)
 */
import { createServer } from 'node:http';
import sharp from 'sharp';
import { rssBytes, spawnBuiltService } from './support/service.js';

const SIZE = 41_943_040;
const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#888' } }).png().toBuffer();
const file = Buffer.concat([png, Buffer.alloc(SIZE - png.length, 7)]);
const form = () => {
  const body = new FormData();
  body.append('target_format', 'webp');
  body.append('filename', 'big.png');
  body.append('created_at', '2026-11-01T00:00:00Z');
  body.append('size_bytes', String(file.length));
  body.append('file', new Blob([file]), 'big.png');
  return body;
};

const bare = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.end('ok'));
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`;

const service = await spawnBuiltService({});
try {
  await fetch(`${service.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body: form() }); // warm-up
  const baseline = rssBytes(service.child.pid!);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(service.child.pid!))), 10);
  const started = performance.now();
  const response = await fetch(`${service.baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body: form() });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (response.status !== 402) throw new Error(`expected the 402 challenge, got ${response.status}`);
  const bareStarted = performance.now();
  await fetch(bareUrl, { method: 'POST', body: form() });
  const bareSeconds = (performance.now() - bareStarted) / 1000;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log('40 MB upload to POST /api/x402/v1/convert-file (streamed to storage, validated, 402)');
  console.log(`  RSS before ${mb(baseline)} MB, peak ${mb(peak)} MB, growth ${mb(peak - baseline)} MB   (target ≤ 64 MB)`);
  console.log(`  upload throughput ${(SIZE / 1024 / 1024 / seconds).toFixed(0)} MB/s   (bare Node server discarding the body: ${(SIZE / 1024 / 1024 / bareSeconds).toFixed(0)} MB/s)`);
} finally {
  await service.stop();
  bare.close();
}
