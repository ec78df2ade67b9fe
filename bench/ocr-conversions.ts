/**
 * OCR through the service's worker path, as a caller of key API `convert` sees it, against the same work done by the
 * engines alone in the same run:
 *  - a 10-page scanned PDF (200 dpi, a skew of half a degree, JPEG) → txt: key API `convert`, p50 of 3, against
 *    pdftoppm + tesseract of each page run directly with the arguments the service gives them (target: overhead
 *    at most 10 %);
 *  - pages per second with the worker's configured concurrency (WORKER_CONCURRENCY_DOCUMENTS, default 2 here):
 *    as many conversions at once, against the engines alone as many at once.
 * The service runs as one process (ROLE=all), with its own database and QUEUE_PREFIX.
 *   npm run bench:ocr   (builds the API; needs PostgreSQL, Redis, poppler-utils, tesseract-ocr, img2pdf)
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createBenchDatabase } from './support/database.js';
import { spawnBuiltService, waitUntilConverts } from './support/service.js';

const PAGES = 10;
const DPI = 200;
const ROUNDS = 3;
const CONCURRENCY = Number(process.env.WORKER_CONCURRENCY_DOCUMENTS ?? 2);
const dir = mkdtempSync(join(tmpdir(), 'fileshift-bench-ocr-'));

const PROSE = [
  'The committee met on Tuesday to review the quarterly figures and the plans for the coming year.',
  'Sales in the northern region grew by twelve percent, while costs stayed close to the budget.',
  'Several members asked for a clearer account of the delays in the delivery of the new equipment.',
  'The chair proposed that a working group report back before the end of the month with options.',
  'It was agreed that the annual meeting would be held in the main hall on the first of June.',
];

/** One A4 page at 200 dpi of printed prose, "scanned": turned half a degree and saved as JPEG. */
async function scannedPage(page: number): Promise<string> {
  const width = Math.round(8.27 * DPI);
  const height = Math.round(11.69 * DPI);
  const lines = Array.from({ length: 36 }, (_, i) => PROSE[(i + page) % PROSE.length]!.slice(0, 80));
  const text = lines.map((line, i) => `<text x="150" y="${220 + i * 56}" font-family="DejaVu Serif" font-size="30">${line}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><text x="150" y="140" font-family="DejaVu Serif" font-size="48">Minutes, page ${page}</text>${text}</svg>`;
  const path = join(dir, `page-${page}.jpg`);
  await sharp(Buffer.from(svg)).rotate(0.5, { background: '#fff' }).resize(width, height, { fit: 'cover' }).jpeg({ quality: 75 }).withMetadata({ density: DPI }).toFile(path);
  return path;
}

const pictures = await Promise.all(Array.from({ length: PAGES }, (_, i) => scannedPage(i + 1)));
const scanPath = join(dir, 'scan.pdf');
execFileSync('img2pdf', ['--engine', 'internal', '-o', scanPath, ...pictures]);
const scan = readFileSync(scanPath);

/** What the service runs for each page, without the service: pdftoppm at the picture's resolution, then tesseract. */
function enginesAlone(slot: number): Promise<number> {
  const work = mkdtempSync(join(dir, `alone-${slot}-`));
  const run = (command: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(command, args, { stdio: 'ignore', env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
    });
  const started = performance.now();
  return (async () => {
    for (let page = 1; page <= PAGES; page++) {
      const base = join(work, `page-${page}`);
      await run('pdftoppm', ['-r', String(DPI), '-gray', '-png', '-cropbox', '-f', String(page), '-l', String(page), '-singlefile', scanPath, base]);
      await run('tesseract', [`${base}.png`, base, '-l', 'eng', '--psm', '1', 'txt']);
    }
    const elapsed = performance.now() - started;
    rmSync(work, { recursive: true, force: true });
    return elapsed;
  })();
}

const database = await createBenchDatabase();
const service = await spawnBuiltService({
  DATABASE_URL: database.url,
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  QUEUE_PREFIX: `bench-ocr-${database.name}`,
  WORKER_CONCURRENCY_DOCUMENTS: String(CONCURRENCY),
});
const api = (path: string, init: RequestInit) => fetch(`${service.baseUrl}${path}`, { ...init, headers: { accept: 'application/json', ...init.headers } });

async function upload(): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([scan]), 'scan.pdf');
  return ((await (await api('/api/v1/upload', { method: 'POST', body: form })).json()) as { Filename: string }).Filename;
}

/** Key API `convert` of an uploaded scan to text (English named, as the engines alone are given), timed as its caller sees it. */
async function convert(filename: string): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const response = await api('/api/v1/convert', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ filename, ext_in: 'pdf', ext_out: 'txt', options: { languages: ['en'] } }),
  });
  const ms = performance.now() - started;
  const body = (await response.json()) as { file?: { urls: string[] }; Message?: string };
  if (response.status !== 200 || !body.file) throw new Error(`convert answered ${response.status}: ${body.Message}`);
  return { ms, text: await (await fetch(`${service.baseUrl}${body.file.urls[0]}`)).text() };
}

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2).padStart(7)} s`;

try {
  await waitUntilConverts(service, 'pdf', 'txt');
  // One of each first: the service's and the system's caches warm (trained data, fonts).
  const warm = await convert(await upload());
  if (!/committee met on Tuesday/.test(warm.text) || (warm.text.match(/\f/g) ?? []).length !== PAGES) throw new Error('the service did not read the scan');
  await enginesAlone(0);

  const service1: number[] = [];
  const alone1: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    service1.push((await convert(await upload())).ms);
    alone1.push(await enginesAlone(round + 1));
  }
  const overhead = p50(service1) / p50(alone1) - 1;

  const names = await Promise.all(Array.from({ length: CONCURRENCY }, () => upload()));
  let started = performance.now();
  await Promise.all(names.map((name) => convert(name)));
  const serviceWall = performance.now() - started;
  started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, slot) => enginesAlone(100 + slot)));
  const aloneWall = performance.now() - started;
  const pagesPerSecond = (wall: number) => ((CONCURRENCY * PAGES) / (wall / 1000)).toFixed(2);

  process.stdout.write(
    [
      `OCR: a ${PAGES}-page scanned PDF (${DPI} dpi, JPEG) → txt, p50 of ${ROUNDS}`,
      `  key API convert                ${seconds(p50(service1))}   (${service1.map((ms) => (ms / 1000).toFixed(2)).join(', ')})`,
      `  pdftoppm + tesseract alone     ${seconds(p50(alone1))}   (${alone1.map((ms) => (ms / 1000).toFixed(2)).join(', ')})`,
      `  overhead                       ${(overhead * 100).toFixed(1).padStart(6)} %   (target ≤ 10 %)`,
      `throughput, ${CONCURRENCY} conversions at once (WORKER_CONCURRENCY_DOCUMENTS=${CONCURRENCY})`,
      `  key API convert                ${pagesPerSecond(serviceWall).padStart(7)} pages/s`,
      `  engines alone                  ${pagesPerSecond(aloneWall).padStart(7)} pages/s`,
      '',
    ].join('\n'),
  );
  if (overhead > 0.1) process.exitCode = 1;
} finally {
  await service.stop();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
}
