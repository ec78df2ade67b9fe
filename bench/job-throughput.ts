/**
 * Conversion jobs through the real queue and worker processes (payment excluded), against raw sharp in this process:
 *  - overhead of one job (1 MB PNG → webp, insert + queue → done) over the same sharp conversion, p50 (target ≤ 10 ms);
 *  - small jobs per second (64×64 PNG → webp) from concurrent submitting clients, with 1 and 2 image-only workers
 *    (WORKER_QUEUES=images) and 1 and 2 all-class workers, against raw sharp's conversions per second (target: one image
 *    worker ≥ 50 %; 2 workers never below 1), with CPU per job in each process and the commits and Redis commands per job.
 * Jobs are submitted the way POST convert-file does after its fee settled (input stored, row inserted, job queued): the
 * submitting clients stand for the API. Measuring starts once every worker is ready: capabilities published, pools warm.
 *   npm run bench:jobs   (needs PostgreSQL and Redis; the engines' Debian packages for the all-class workers)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import sharp from 'sharp';
import { loadConfig } from '../apps/api/dist/config/app-config.js';
import { CONVERT_JOB_OPTIONS } from '../apps/api/dist/conversion-jobs/job-runs.js';
import { jobInputKey } from '../apps/api/dist/conversion-jobs/job-storage-keys.js';
import { createFileStorage } from '../apps/api/dist/storage/create-file-storage.js';
import { ConversionGraph, ENGINE_DESCRIPTORS } from '@fileshift/converters';
import { namedCpuMs, treeCpuMs } from './support/cpu-time.js';
import { createBenchDatabase } from './support/database.js';
import { type BuiltService, spawnBuiltService, waitUntil } from './support/service.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Submitting clients at once. */
const CLIENTS = 8;
const SMALL_JOBS = Number(process.env.BENCH_SMALL_JOBS ?? 1000);
const OVERHEAD_RUNS = 20;

const database = await createBenchDatabase();
const env = { DATABASE_URL: database.url, REDIS_URL, QUEUE_PREFIX: `bench-${database.name}`, DATA_DIR: mkdtempSync(join(tmpdir(), 'fileshift-jobs-')), ROLE: 'worker' };
const db = new pg.Pool({ connectionString: env.DATABASE_URL, max: CLIENTS });
const redis = new Redis(REDIS_URL);
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

/** Ended jobs, as the workers announce them (what the API's waiting requests hear), so nothing polls the database. */
const ended = new Map<string, () => void>();
const subscriber = new Redis(REDIS_URL);
subscriber.on('message', (_channel, jobId: string) => ended.get(jobId)?.());
await subscriber.subscribe(`${env.QUEUE_PREFIX}:job-ends:${deploymentId}`);

/** Submits a job as POST convert-file does after its fee; resolves when a worker announces its end. */
async function runJob(input: Buffer): Promise<void> {
  const id = `job_${randomBytes(24).toString('base64url')}`;
  const end = new Promise<void>((resolve) => ended.set(id, resolve));
  await storage.put(jobInputKey(id), Readable.from([input]));
  await db.query(
    `INSERT INTO conversion_jobs (id, status, original_filename, file_created_at, input_size_bytes, input_sha256, detected_input_format, target_format, plan, fallback_plans, engine_class, options, delivery, request_fingerprint, expires_at)
     VALUES ($1, 'queued', 'a.png', now(), $2, 'x', 'png', 'webp', $3, '[]', 'images', '{}', 'parts', 'x', now() + interval '1 day')`,
    [id, input.length, PNG_TO_WEBP],
  );
  await queue.add('conversion.convert-image', { deploymentId, payload: { jobId: id } }, { jobId: id, ...CONVERT_JOB_OPTIONS });
  await end;
  ended.delete(id);
}

/** Throws unless every job so far ended done: a failing job also ends, and would make a fast figure. */
async function assertAllDone(): Promise<void> {
  const { rows } = await db.query(`SELECT count(*)::int AS failed, min(failure_message) AS message FROM conversion_jobs WHERE status <> 'done'`);
  if (rows[0].failed > 0) throw new Error(`${rows[0].failed} job(s) did not end done: ${rows[0].message}`);
}

/** `total` jobs from CLIENTS clients at once, each submitting its next when its last ended. */
async function runJobs(input: Buffer, total: number): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (next++ < total) await runJob(input);
  }));
}

/** Spawns `count` workers and waits until each has published its capabilities with its pools warm. */
async function startWorkers(count: number, queues?: string): Promise<BuiltService[]> {
  const workers = await Promise.all(Array.from({ length: count }, () => spawnBuiltService({ ...env, ...(queues ? { WORKER_QUEUES: queues } : {}) })));
  const board = `${env.QUEUE_PREFIX}:capabilities:${deploymentId}`;
  const pids = new Set(workers.map((worker) => worker.child.pid));
  await waitUntil(
    `${count} worker(s) ready`,
    async () => Object.values(await redis.hgetall(board)).map((entry) => JSON.parse(entry) as { pid: number; warm?: boolean }).filter((worker) => pids.has(worker.pid) && worker.warm).length === count,
    { intervalMs: 100, timeoutMs: 120_000 },
  );
  return workers;
}

async function stopWorkers(workers: BuiltService[]): Promise<void> {
  await Promise.all(workers.map((worker) => worker.stop()));
  await redis.del(`${env.QUEUE_PREFIX}:capabilities:${deploymentId}`);
}

const commits = async () => Number((await db.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows[0].xact_commit);
const redisCommands = async () => Number(/total_commands_processed:(\d+)/.exec(await redis.info('stats'))![1]);
const redisPid = Number(/process_id:(\d+)/.exec(await redis.info('server'))![1]);

/** What one measured run of small jobs cost, per job, and how fast it went. */
async function measure(workers: BuiltService[]) {
  const cpu = () => ({ workers: workers.reduce((total, worker) => total + treeCpuMs(worker.child.pid!), 0), postgres: namedCpuMs('postgres'), redis: treeCpuMs(redisPid), submitter: (process.cpuUsage().user + process.cpuUsage().system) / 1000 });
  await runJobs(smallPng, 50); // warm-up: connections, caches, hosts' first requests
  // pg_stat_database is flushed at most once a second.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const [cpuBefore, commitsBefore, commandsBefore] = [cpu(), await commits(), await redisCommands()];
  const start = performance.now();
  await runJobs(smallPng, SMALL_JOBS);
  const seconds = (performance.now() - start) / 1000;
  const cpuAfter = cpu();
  const commandsAfter = await redisCommands();
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const commitsAfter = await commits();
  await assertAllDone();
  const perJob = (after: number, before: number) => (after - before) / SMALL_JOBS;
  return {
    jobsPerSecond: SMALL_JOBS / seconds,
    cpuMs: Object.fromEntries(Object.keys(cpuAfter).map((key) => [key, perJob(cpuAfter[key as keyof typeof cpuAfter], cpuBefore[key as keyof typeof cpuBefore])])) as Record<keyof typeof cpuAfter, number>,
    commits: perJob(commitsAfter, commitsBefore),
    redisCommands: perJob(commandsAfter, commandsBefore),
  };
}

// The baseline runs sharp with the engine's own libvips settings (half the cores), so the difference is the job machinery.
sharp.concurrency(Math.max(1, Math.floor(availableParallelism() / 2)));
const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rawRate = async () => {
  const start = performance.now();
  for (let i = 0; i < 500; i++) await sharp(smallPng).webp().toBuffer();
  return 500 / ((performance.now() - start) / 1000);
};

let workers: BuiltService[] = [];
try {
  workers = await startWorkers(1, 'images');
  await runJobs(smallPng, 20);
  const raw: number[] = [];
  const endToEnd: number[] = [];
  for (let i = 0; i < OVERHEAD_RUNS; i++) {
    const start = performance.now();
    await sharp(bigPng).webp().toBuffer();
    raw.push(performance.now() - start);
    const submitted = performance.now();
    await runJob(bigPng);
    endToEnd.push(performance.now() - submitted);
  }
  await assertAllDone();
  console.log(`conversion job overhead, ${(bigPng.length / 1e6).toFixed(1)} MB PNG → webp, 1 image worker, p50 of ${OVERHEAD_RUNS}`);
  console.log(`  raw sharp conversion (baseline, ${sharp.concurrency()} libvips thread(s) like the engine)   ${p50(raw).toFixed(1)} ms`);
  console.log(`  job: insert + queue → done        ${p50(endToEnd).toFixed(1)} ms`);
  console.log(`  overhead                          ${(p50(endToEnd) - p50(raw)).toFixed(1)} ms   (target ≤ 10 ms)`);

  const rawBefore = await rawRate();
  console.log(`\nsmall jobs per second: ${SMALL_JOBS} jobs of a 64×64 PNG → webp from ${CLIENTS} clients at once; per job: CPU ms by process, PostgreSQL commits, Redis commands`);
  console.log('  workers                     jobs/s   of raw   worker   postgres   redis   submitter   commits   redis cmds');
  const rows: Array<{ label: string; jobsPerSecond: number }> = [];
  for (const [count, queues] of [[1, 'images'], [2, 'images'], [1, undefined], [2, undefined]] as const) {
    await stopWorkers(workers);
    workers = await startWorkers(count, queues);
    const run = await measure(workers);
    const label = `${count} ${queues ? 'image-only' : 'all-class '} worker${count > 1 ? 's' : ' '}`;
    rows.push({ label, jobsPerSecond: run.jobsPerSecond });
    const { cpuMs } = run;
    console.log(
      `  ${label.padEnd(26)}${run.jobsPerSecond.toFixed(0).padStart(7)}   ${((100 * run.jobsPerSecond) / rawBefore).toFixed(0).padStart(4)} %` +
        `${cpuMs.workers.toFixed(2).padStart(9)}${cpuMs.postgres.toFixed(2).padStart(11)}${cpuMs.redis.toFixed(2).padStart(8)}${cpuMs.submitter.toFixed(2).padStart(12)}` +
        `${run.commits.toFixed(1).padStart(10)}${run.redisCommands.toFixed(1).padStart(13)}`,
    );
  }
  const rawAfter = await rawRate();
  console.log(`  raw sharp in one process (baseline, before and after): ${rawBefore.toFixed(0)} and ${rawAfter.toFixed(0)} conversions/s`);
  console.log(`  target: 1 image-only worker ≥ 50 % of raw sharp; 2 workers of a kind not below 1 (${availableParallelism()} cores here)`);
} finally {
  await stopWorkers(workers);
  await queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  subscriber.disconnect();
  redis.disconnect();
  await db.end();
  await database.drop();
  rmSync(env.DATA_DIR, { recursive: true, force: true });
}
