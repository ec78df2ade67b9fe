/**
 * Documents through the service's worker path, as a caller of key API `convert` sees them, against a cold
 * `soffice --convert-to` of the same file measured in the same run:
 *  - DOCX (about 10 KB) → PDF: p50 of key API `convert` (target ≤ 0.2 s) vs the cold conversion;
 *  - throughput with 2 concurrent conversions, warm vs cold (target ≥ 8×);
 *  - a 50-page DOCX → PDF, p50; RSS per warm LibreOffice instance;
 *  - endurance: 1,000 conversions through a pool that replaces each instance after 100 (zero failures).
 * The service runs as one process (ROLE=all) with a pool of 2, its own database and QUEUE_PREFIX.
 *   npm run bench:documents   (builds the API; needs PostgreSQL, Redis and LibreOffice)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdfPages, residentMb, sampleDocx } from '@fileshift/converters/testing';
import { createBenchDatabase } from './support/database.js';
import { words } from './support/prose.js';
import { spawnBuiltService, waitUntilConverts } from './support/service.js';

const POOL_SIZE = 2;
const RESTART_EVERY = 100;
const ENDURANCE = Number(process.env.BENCH_ENDURANCE_CONVERSIONS ?? 1000);

const dir = mkdtempSync(join(tmpdir(), 'fileshift-bench-documents-'));
const page = (n: number, wordCount: number) => `Page ${n}. ${words(wordCount, n)}.`;
/** About 10 KB: a heading, a table and pages of text. */
const smallDocx = sampleDocx([2, 3, 4].map((n) => page(n, 850)));
/** Fifty full pages (about 450 words each). */
const longDocx = sampleDocx(Array.from({ length: 49 }, (_, i) => page(i + 2, 450)));
const smallPath = join(dir, 'report.docx');
writeFileSync(smallPath, smallDocx);

const p = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;

/** One cold `soffice --convert-to pdf` with a fresh profile: the way a service without a pool converts. */
function coldConversion(slot: number): Promise<number> {
  const work = mkdtempSync(join(dir, `cold-${slot}-`));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('soffice', [`-env:UserInstallation=file://${work}/profile`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', work, smallPath], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => {
      const elapsed = performance.now() - started;
      const made = readdirSync(work).includes('report.pdf');
      rmSync(work, { recursive: true, force: true });
      if (code === 0 && made) resolve(elapsed);
      else reject(new Error(`cold soffice exited ${code}`));
    });
  });
}

const database = await createBenchDatabase();
const log: string[] = [];
const service = await spawnBuiltService(
  {
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `bench-${database.name}`,
    LOG_LEVEL: 'info',
    LIBREOFFICE_POOL_SIZE: String(POOL_SIZE),
    LIBREOFFICE_MAX_CONVERSIONS: String(RESTART_EVERY),
  },
  (line) => log.push(line),
);
const api = (path: string, init: RequestInit) => fetch(`${service.baseUrl}${path}`, { ...init, headers: { accept: 'application/json', ...init.headers } });

async function upload(file: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([file]), name);
  return ((await (await api('/api/v1/upload', { method: 'POST', body: form })).json()) as { Filename: string }).Filename;
}

/** Key API `convert` of an uploaded file, timed as its caller sees it; throws unless it answers with a URL. */
async function convert(filename: string): Promise<number> {
  const started = performance.now();
  const response = await api('/api/v1/convert', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filename, ext_in: 'docx', ext_out: 'pdf' }) });
  const elapsed = performance.now() - started;
  const body = (await response.json()) as { file?: { urls: string[] }; Message?: string };
  if (response.status !== 200 || body.file?.urls.length !== 1) throw new Error(`convert answered ${response.status}: ${body.Message}`);
  lastUrl = body.file.urls[0]!;
  return elapsed;
}
let lastUrl = '';

/** The pages of the PDF the last conversion made. */
async function lastPdfPages(): Promise<number> {
  const path = join(dir, 'last.pdf');
  writeFileSync(path, Buffer.from(await (await fetch(`${service.baseUrl}${lastUrl}`)).arrayBuffer()));
  return pdfPages(path);
}

/** `count` conversions of fresh uploads, `concurrency` at a time: their times and the wall time. */
async function convertMany(file: Buffer, count: number, concurrency: number): Promise<{ times: number[]; wallMs: number; failures: string[] }> {
  const names = await Promise.all(Array.from({ length: count }, (_, i) => upload(file, `doc-${i}.docx`)));
  const times: number[] = [];
  const failures: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        await convert(name).then((elapsed) => times.push(elapsed), (error: Error) => failures.push(error.message));
      }
    }),
  );
  return { times, wallMs: performance.now() - started, failures };
}

const readProc = (pid: string, file: string) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
};

/** The service's LibreOffice processes (its descendants) by instance, the tag in their command lines, and their RSS. */
function instanceRss(): Map<string, number> {
  const children = new Map<number, number[]>();
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    const parent = Number(readProc(pid, 'stat').replace(/^.*\) \S+ /s, '').split(' ')[0]);
    children.set(parent, [...(children.get(parent) ?? []), Number(pid)]);
  }
  const byTag = new Map<string, number[]>();
  const visit = (pid: number) => {
    const tag = /fileshift-lo-[A-Za-z0-9.-]+_\d+-[A-Za-z0-9]{6}/.exec(readProc(String(pid), 'cmdline'))?.[0];
    if (tag) byTag.set(tag, [...(byTag.get(tag) ?? []), pid]);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(service.child.pid!);
  return new Map([...byTag].map(([tag, pids]) => [tag, residentMb(pids)]));
}

try {
  await waitUntilConverts(service, 'docx', 'pdf');
  await convertMany(smallDocx, 4, 2); // warm-up: both instances have converted once

  const cold: number[] = [];
  for (let i = 0; i < 5; i++) cold.push(await coldConversion(i));
  const warm = await convertMany(smallDocx, 30, 1);
  console.log(`DOCX (${(smallDocx.length / 1024).toFixed(1)} KB, ${await lastPdfPages()} pages) → PDF; LibreOffice pool of ${POOL_SIZE}, 2 cores`);
  console.log(`  cold soffice --convert-to (baseline, fresh profile)   p50 ${ms(p(cold, 0.5))}`);
  console.log(`  key API convert, warm pool                            p50 ${ms(p(warm.times, 0.5))}   p90 ${ms(p(warm.times, 0.9))}   (target p50 ≤ 200 ms)`);

  const coldStarted = performance.now();
  for (let round = 0; round < 3; round++) await Promise.all([coldConversion(10 + 2 * round), coldConversion(11 + 2 * round)]);
  const coldRate = 6 / ((performance.now() - coldStarted) / 1000);
  const parallel = await convertMany(smallDocx, 40, 2);
  const warmRate = parallel.times.length / (parallel.wallMs / 1000);
  console.log(`  throughput, 2 concurrent: cold ${coldRate.toFixed(2)}/s, warm ${warmRate.toFixed(2)}/s = ${(warmRate / coldRate).toFixed(1)}× (target ≥ 8×)`);

  const long = await convertMany(longDocx, 5, 1);
  console.log(`${await lastPdfPages()}-page DOCX (${(longDocx.length / 1024).toFixed(0)} KB) → PDF   p50 ${ms(p(long.times, 0.5))}`);
  const rss = instanceRss();
  console.log(`RSS per warm instance (soffice.bin, oosplash, bridge): ${[...rss.values()].map((mb) => `${mb} MB`).join(', ')}`);

  const retiredBefore = log.filter((line) => line.includes('retired after')).length;
  const endurance = await convertMany(smallDocx, ENDURANCE, 2);
  const retired = log.filter((line) => line.includes('retired after')).length - retiredBefore;
  const crashed = log.filter((line) => line.includes('crashed after')).length;
  console.log(
    `endurance: ${ENDURANCE} conversions, 2 concurrent, each instance replaced after ${RESTART_EVERY}: ${endurance.failures.length} failures, ` +
      `${retired} instances retired, ${crashed} crashed; p50 ${ms(p(endurance.times, 0.5)).trim()}, p99 ${ms(p(endurance.times, 0.99)).trim()}, ` +
      `${(endurance.times.length / (endurance.wallMs / 1000)).toFixed(1)}/s (target: 0 failures)`,
  );
  if (endurance.failures.length > 0) console.log(`  failures: ${[...new Set(endurance.failures)].join('; ')}`);
} finally {
  await service.stop();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
}
