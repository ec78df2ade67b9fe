/**
 * Capacity: jobs per second with 1, 2 and 4 worker processes, per engine class, and what PostgreSQL and Redis
 * see per job.
 *  - One API process (ROLE=api) and N worker processes (ROLE=worker, WORKER_QUEUES=<class>), each with a
 *    DATA_DIR of its own (its own scratch); their `files` directories are one shared directory, as a shared
 *    volume would be with the local storage driver.
 *  - Jobs go in as a caller of the key API sends them (upload, then `convert`, which waits for the worker): the
 *    service's own path without a payment per job; `clients` of them in flight at once (4 per worker).
 *  - images: small PNG → webp; documents: DOCX (about 10 KB) → PDF through the LibreOffice pool.
 *  - Each run: start the processes, a warm-up (engines loaded, every worker serving), then a fixed number of
 *    jobs timed from the first upload to the last answer. The 1-worker run is the baseline for the speed-up.
 *  - Per completed job: Redis commands (INFO commandstats deltas of a Redis of the bench's own, so nothing
 *    else is counted; commands run inside Lua scripts count on their own lines as well as the EVALSHA) and
 *    PostgreSQL transactions and rows (pg_stat_database deltas of the bench's own database). pg_stat_statements
 *    is not needed; the window includes the services' background work (heartbeats, sweeps) during the run.
 *
 *   npm run bench:capacity   (builds the API; needs PostgreSQL, redis-server or REDIS_URL, LibreOffice)
 *   node --conditions=@fileshift/source --import tsx bench/capacity.ts --workers 1,2,4,8 --image-jobs 2000 --document-jobs 200
 * Flags (or environment): --workers (CAPACITY_WORKERS, 1,2,4), --image-jobs (CAPACITY_IMAGE_JOBS, 300),
 * --document-jobs (CAPACITY_DOCUMENT_JOBS, 30), --classes (CAPACITY_CLASSES, images,documents),
 * --clients-per-worker (CAPACITY_CLIENTS_PER_WORKER, 4). REDIS_URL set: that Redis is used instead of a private
 * one, and its commandstats count every client of that server (said in the output).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sampleDocx } from '@fileshift/converters/testing';
import { Redis } from 'ioredis';
import pg from 'pg';
import sharp from 'sharp';
import { createBenchDatabase } from './support/database.js';
import { type BuiltService, freePort, spawnBuiltService, waitUntil, waitUntilConverts } from './support/service.js';

const { values: flags } = parseArgs({
  options: {
    workers: { type: 'string', default: process.env.CAPACITY_WORKERS ?? '1,2,4' },
    'image-jobs': { type: 'string', default: process.env.CAPACITY_IMAGE_JOBS ?? '300' },
    'document-jobs': { type: 'string', default: process.env.CAPACITY_DOCUMENT_JOBS ?? '30' },
    classes: { type: 'string', default: process.env.CAPACITY_CLASSES ?? 'images,documents' },
    'clients-per-worker': { type: 'string', default: process.env.CAPACITY_CLIENTS_PER_WORKER ?? '4' },
  },
});
const positive = (name: string, text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name}: a whole number ≥ 1 (got "${text}")`);
  return value;
};
const workerCounts = flags.workers.split(',').map((count) => positive('workers', count.trim()));
const clientsPerWorker = positive('clients-per-worker', flags['clients-per-worker']);

interface EngineClass {
  queue: 'images' | 'documents';
  pair: string;
  input: Buffer;
  from: string;
  to: string;
  jobs: number;
  /** Warm-up jobs per worker: the first conversions on a worker load its engine. */
  warmUpPerWorker: number;
}
const smallPng = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#36c' } }).png().toBuffer();
const words = (count: number, seed: number) => {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => Array.from({ length: 2 + Math.floor(next() * 8) }, () => String.fromCharCode(97 + Math.floor(next() * 26))).join('')).join(' ');
};
const docx = sampleDocx([2, 3, 4].map((n) => `Page ${n}. ${words(850, n)}.`));
const allClasses: EngineClass[] = [
  { queue: 'images', pair: `PNG 64×64 (${smallPng.length} B) → webp`, input: smallPng, from: 'png', to: 'webp', jobs: positive('image-jobs', flags['image-jobs']), warmUpPerWorker: 8 },
  { queue: 'documents', pair: `DOCX (${(docx.length / 1024).toFixed(1)} KB) → PDF`, input: docx, from: 'docx', to: 'pdf', jobs: positive('document-jobs', flags['document-jobs']), warmUpPerWorker: 3 },
];
const chosen = flags.classes.split(',').map((name) => name.trim());
const classes = allClasses.filter((engineClass) => chosen.includes(engineClass.queue));
if (classes.length !== chosen.length) throw new Error(`--classes: images and/or documents (got "${flags.classes}")`);

/** PostgreSQL's statistics reach pg_stat_database when a backend flushes them: at the latest 10 s after it goes idle, or when it exits. */
const PG_STATS_SETTLE_MS = 11_000;

const root = mkdtempSync(join(tmpdir(), 'fileshift-bench-capacity-'));
const sharedFiles = join(root, 'files');
mkdirSync(sharedFiles);
/** A DATA_DIR of its own whose `files` is the shared directory. */
function dataDir(name: string): string {
  const dir = join(root, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  symlinkSync(sharedFiles, join(dir, 'files'));
  return dir;
}

// Redis: one of the bench's own unless REDIS_URL names one, so INFO commandstats counts only this bench.
let privateRedis: ChildProcess | undefined;
let redisUrl = process.env.REDIS_URL;
const redisIsolated = redisUrl === undefined;
if (redisUrl === undefined) {
  const port = await freePort();
  const redisDir = join(root, 'redis');
  mkdirSync(redisDir);
  privateRedis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir], { stdio: 'ignore' });
  redisUrl = `redis://127.0.0.1:${port}`;
}
const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
redis.on('error', () => undefined); // refused connections while redis-server starts; a failed command still throws
await waitUntil('redis-server answering', async () => {
  if (redis.status === 'wait') await redis.connect();
  return (await redis.ping()) === 'PONG';
});

const database = await createBenchDatabase();
const QUEUE_PREFIX = `bench-${database.name}`;
const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
/** The worker knobs, passed on from the bench's environment when set (to try them on a bigger machine). */
const KNOBS = ['WORKER_CONCURRENCY_IMAGES', 'WORKER_CONCURRENCY_DOCUMENTS', 'LIBREOFFICE_POOL_SIZE'] as const;
const knobs = Object.fromEntries(KNOBS.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]!]])));
const common = { DATABASE_URL: database.url, REDIS_URL: redisUrl, QUEUE_PREFIX, LOG_LEVEL: 'info', ...knobs };

/** The machine's busy and total CPU time (all cores, /proc/stat ticks): how much of the CPUs a run used, whoever used it. */
function cpuTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - fields[3]! - fields[4]!, total }; // idle and iowait
}

async function commandStats(): Promise<Map<string, number>> {
  const stats = new Map<string, number>();
  for (const match of (await redis.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) stats.set(match[1]!, Number(match[2]));
  return stats;
}
interface PgStats { xact_commit: number; xact_rollback: number; tup_returned: number; tup_fetched: number; tup_inserted: number; tup_updated: number; tup_deleted: number }
async function pgStats(): Promise<PgStats> {
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await admin.query(
    `SELECT xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database WHERE datname = $1`,
    [database.name],
  );
  return Object.fromEntries(Object.entries(rows[0] as Record<string, string>).map(([key, value]) => [key, Number(value)])) as unknown as PgStats;
}

const api = (service: BuiltService, path: string, init: RequestInit) => fetch(`${service.baseUrl}${path}`, { ...init, headers: { accept: 'application/json', ...init.headers } });
/** One job as a key API caller makes it: upload, then convert (answers once the worker has finished). */
async function job(service: BuiltService, engineClass: EngineClass, n: number): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(engineClass.input)]), `in-${n}.${engineClass.from}`);
  const uploaded = await api(service, '/api/v1/upload', { method: 'POST', body: form });
  const { Filename, Message } = (await uploaded.json()) as { Filename?: string; Message?: string };
  if (uploaded.status !== 200 || !Filename) throw new Error(`upload answered ${uploaded.status}: ${Message}`);
  const converted = await api(service, '/api/v1/convert', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filename: Filename, ext_in: engineClass.from, ext_out: engineClass.to }) });
  const body = (await converted.json()) as { file?: { urls: string[] }; Message?: string };
  if (converted.status !== 200 || body.file?.urls.length !== 1) throw new Error(`convert answered ${converted.status}: ${body.Message}`);
}
/** `count` jobs, `clients` in flight; the wall time in seconds. */
async function runJobs(service: BuiltService, engineClass: EngineClass, count: number, clients: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(clients, count) }, async () => {
      while (next < count) await job(service, engineClass, next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

interface Run { engineClass: EngineClass; workers: number; jobs: number; seconds: number; cpuBusy: number; redis: Map<string, number>; pg: PgStats }
/** The API and `count` workers of one class: warm-up, settle, the measured jobs, then everything stopped. */
async function measure(engineClass: EngineClass, count: number): Promise<Run> {
  const services: BuiltService[] = [];
  try {
    const started: string[] = [];
    for (let i = 0; i < count; i++) {
      services.push(await spawnBuiltService({ ...common, ROLE: 'worker', WORKER_QUEUES: engineClass.queue, DATA_DIR: dataDir(`worker-${i}`) }, (line) => line.includes('"worker started"') && started.push(line)));
    }
    const apiService = await spawnBuiltService({ ...common, ROLE: 'api', DATA_DIR: dataDir('api') });
    services.push(apiService);
    await waitUntil(`${count} worker(s) started`, async () => started.length === count, { timeoutMs: 300_000 });
    await waitUntilConverts(apiService, engineClass.from, engineClass.to);
    const clients = clientsPerWorker * count;
    await runJobs(apiService, engineClass, engineClass.warmUpPerWorker * count, clients);
    await new Promise((resolve) => setTimeout(resolve, PG_STATS_SETTLE_MS));
    const [redisBefore, pgBefore] = [await commandStats(), await pgStats()];
    const cpuBefore = cpuTicks();
    const seconds = await runJobs(apiService, engineClass, engineClass.jobs, clients);
    const cpuAfter = cpuTicks();
    const redisAfter = await commandStats();
    await Promise.all(services.splice(0).map((service) => service.stop())); // exiting backends flush their statistics
    const pgAfter = await pgStats();
    const redisDelta = new Map<string, number>();
    for (const [command, calls] of redisAfter) if (command !== 'info') redisDelta.set(command, calls - (redisBefore.get(command) ?? 0));
    const pgDelta = Object.fromEntries(Object.keys(pgAfter).map((key) => [key, pgAfter[key as keyof PgStats] - pgBefore[key as keyof PgStats]])) as unknown as PgStats;
    return { engineClass, workers: count, jobs: engineClass.jobs, seconds, cpuBusy: (cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total), redis: redisDelta, pg: pgDelta };
  } finally {
    await Promise.all(services.map((service) => service.stop()));
  }
}

const pad = (text: string | number, width: number) => String(text).padStart(width);
try {
  console.log(`capacity: ${cpus().length} cores (${availableParallelism()} available), ${cpus()[0]?.model ?? 'unknown CPU'}`);
  console.log(`one API process + N worker processes (each its own DATA_DIR), key API upload + convert, ${clientsPerWorker} callers in flight per worker`);
  console.log(`worker settings: ${Object.keys(knobs).length > 0 ? Object.entries(knobs).map(([name, value]) => `${name}=${value}`).join(' ') : 'defaults (WORKER_CONCURRENCY_IMAGES 2, LIBREOFFICE_POOL_SIZE half the cores, 1 to 4)'}`);
  console.log(`Redis: ${redisIsolated ? "the bench's own redis-server (commandstats count only this bench)" : `${redisUrl} (commandstats count every client of that server)`}; PostgreSQL: pg_stat_database of ${database.name}`);
  for (const engineClass of classes) {
    console.log(`\n${engineClass.queue}: ${engineClass.pair}, ${engineClass.jobs} jobs after a warm-up of ${engineClass.warmUpPerWorker} per worker`);
    const runs: Run[] = [];
    console.log('  workers    jobs   seconds    jobs/s   speed-up vs 1   CPUs busy (all processes)');
    for (const count of workerCounts) {
      const run = await measure(engineClass, count);
      runs.push(run);
      const rate = run.jobs / run.seconds;
      const baseline = runs[0]!.jobs / runs[0]!.seconds;
      console.log(`  ${pad(count, 7)} ${pad(run.jobs, 7)} ${pad(run.seconds.toFixed(2), 9)} ${pad(rate.toFixed(1), 9)} ${pad(`${(rate / baseline).toFixed(2)}×`, 10)} ${pad(`${(run.cpuBusy * 100).toFixed(0)} %`, 15)}`);
    }
    console.log('  per completed job:');
    console.log('  workers | Redis commands (most called)                                   | PG commits rollbacks | rows inserted updated deleted fetched returned');
    for (const run of runs) {
      const perJob = (value: number) => (value / run.jobs).toFixed(1);
      const total = [...run.redis.values()].reduce((sum, calls) => sum + calls, 0);
      const top = [...run.redis.entries()].filter(([, calls]) => calls > 0).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([command, calls]) => `${command} ${perJob(calls)}`).join(', ');
      console.log(
        `  ${pad(run.workers, 7)} | ${`${pad(perJob(total), 5)} (${top})`.padEnd(62)} | ${pad(perJob(run.pg.xact_commit), 10)} ${pad(perJob(run.pg.xact_rollback), 9)} | ` +
          `${pad(perJob(run.pg.tup_inserted), 13)} ${pad(perJob(run.pg.tup_updated), 7)} ${pad(perJob(run.pg.tup_deleted), 7)} ${pad(perJob(run.pg.tup_fetched), 7)} ${pad(perJob(run.pg.tup_returned), 8)}`,
      );
    }
  }
} finally {
  if (!redisIsolated) {
    // A shared Redis: remove the keys under the bench's prefix (a private one goes with its process).
    let cursor = '0';
    do {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${QUEUE_PREFIX}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = nextCursor;
    } while (cursor !== '0');
  }
  redis.disconnect();
  if (privateRedis && privateRedis.exitCode === null) {
    const exited = new Promise((resolve) => privateRedis!.once('exit', resolve));
    privateRedis.kill('SIGTERM');
    await exited;
  }
  await admin.end();
  await database.drop();
  rmSync(root, { recursive: true, force: true });
}
