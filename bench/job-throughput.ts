/**
 * Conversion jobs through the real queue and worker processes (payment excluded):
 *  - overhead of a job (1 MB PNG → webp) over the raw sharp conversion measured in the same run
 *    (p50 of 10; target ≤ 30 ms);
 *  - jobs per second with small inputs and 1, 2 and 4 worker processes.
 * Jobs are inserted and queued the way POST convert-file does after its fee settled.
 *   npm run build && node --import tsx bench/job-throughput.ts   (needs PostgreSQL and Redis)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Queue } from 'bullmq';
import pg from 'pg';
import sharp from 'sharp';
import { loadConfig } from '../apps/api/dist/config/app-config.js';
import { CONVERT_JOB_OPTIONS } from '../apps/api/dist/conversion-jobs/job-runs.js';
import { jobInputKey } from '../apps/api/dist/conversion-jobs/job-storage-keys.js';
import { createFileStorage } from '../apps/api/dist/storage/create-file-storage.js';
import { ConversionGraph, ENGINE_DESCRIPTORS } from '@fileshift/converters';
import { createBenchDatabase } from './support/database.js';
import { type BuiltService, spawnBuiltService } from './support/service.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const database = await createBenchDatabase();
const env = { DATABASE_URL: database.url, REDIS_URL, QUEUE_PREFIX: `bench-${database.name}`, DATA_DIR: mkdtempSync(join(tmpdir(), 'fileshift-jobs-')), ROLE: 'worker' };
const db = new pg.Client({ connectionString: env.DATABASE_URL });
await db.connect();
const queue = new Queue('conversion-images', { connection: { url: REDIS_URL }, prefix: env.QUEUE_PREFIX });
const loaded = loadConfig(env, 'bench');
if (!loaded.ok) throw new Error(loaded.problems.join('; '));
const storage = createFileStorage(loaded.config);
// Jobs carry their deployment's identity: a worker leaves any other job alone.
const deploymentId = (await db.query('SELECT id FROM deployment_identity')).rows[0].id as string;

const bigPng = await sharp({ create: { width: 700, height: 500, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png({ compressionLevel: 1 }).toBuffer();
const smallPng = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#36c' } }).png().toBuffer();

/** The plan the API would record (jobs go in here without the API). */
const PNG_TO_WEBP = JSON.stringify(new ConversionGraph(ENGINE_DESCRIPTORS).plan('png', 'webp'));

async function submit(input: Buffer): Promise<string> {
  const id = `job_${randomBytes(24).toString('base64url')}`;
  await storage.put(jobInputKey(id), Readable.from([input]));
  await db.query(
    `INSERT INTO conversion_jobs (id, status, original_filename, file_created_at, input_size_bytes, input_sha256, detected_input_format, target_format, plan, fallback_plans, engine_class, options, delivery, request_fingerprint, expires_at)
     VALUES ($1, 'queued', 'a.png', now(), $2, 'x', 'png', 'webp', $3, '[]', 'images', '{}', 'parts', 'x', now() + interval '1 day')`,
    [id, input.length, PNG_TO_WEBP],
  );
  await queue.add('conversion.convert-image', { deploymentId, payload: { jobId: id } }, { jobId: id, ...CONVERT_JOB_OPTIONS });
  return id;
}
async function waitDone(ids: string[]): Promise<void> {
  for (;;) {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM conversion_jobs WHERE id = ANY($1) AND status IN ('done', 'failed')`, [ids]);
    if (rows[0].n === ids.length) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
// The baseline runs sharp with the engine's own libvips settings (half the cores), so the difference is the job machinery.
sharp.concurrency(Math.max(1, Math.floor(availableParallelism() / 2)));
const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const workers: BuiltService[] = [];
try {
  // Overhead of one job over the raw conversion.
  workers.push(await spawnBuiltService(env));
  await waitDone([await submit(smallPng)]); // warm-up: worker up, engines loaded
  const raw: number[] = [];
  const endToEnd: number[] = [];
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    await sharp(bigPng).webp().toBuffer();
    raw.push(performance.now() - start);
    const submitted = performance.now();
    await waitDone([await submit(bigPng)]);
    endToEnd.push(performance.now() - submitted);
  }
  console.log(`conversion job overhead, ${(bigPng.length / 1e6).toFixed(1)} MB PNG → webp, 1 worker process, p50 of 10`);
  console.log(`  raw sharp conversion (baseline, ${sharp.concurrency()} libvips thread(s) like the engine)   ${p50(raw).toFixed(1)} ms`);
  console.log(`  job: insert + queue → done        ${p50(endToEnd).toFixed(1)} ms`);
  console.log(`  overhead                          ${(p50(endToEnd) - p50(raw)).toFixed(1)} ms   (target ≤ 30 ms)`);

  // Throughput with 1, 2, 4 worker processes.
  const sequential = performance.now();
  for (let i = 0; i < 40; i++) await sharp(smallPng).webp().toBuffer();
  const rawRate = 40 / ((performance.now() - sequential) / 1000);
  console.log(`jobs per second, 200 small PNG → webp jobs (raw sharp in one process: ${rawRate.toFixed(0)} conversions/s)`);
  for (const count of [1, 2, 4]) {
    while (workers.length < count) workers.push(await spawnBuiltService(env));
    while (workers.length > count) await workers.pop()!.stop();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const start = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push(await submit(smallPng));
    await waitDone(ids);
    console.log(`  ${count} worker process${count > 1 ? 'es' : '  '}   ${(ids.length / ((performance.now() - start) / 1000)).toFixed(0)} jobs/s`);
  }
} finally {
  await Promise.all(workers.map((worker) => worker.stop()));
  await queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  await db.end();
  await database.drop();
  rmSync(env.DATA_DIR, { recursive: true, force: true });
}
