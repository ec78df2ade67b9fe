/**
 * Memory of the embedded default: the built service as `npm start` runs it (no DATABASE_URL, so PGlite under
 * its own fresh DATA_DIR; dev payments with the anvil it starts; ROLE=all, so its workers and their LibreOffice
 * pool too), beside the same service on PostgreSQL (a fresh database of the bench's own, dropped afterwards).
 *  - Resident memory (RSS) of the API process and of its whole process tree (anvil, LibreOffice and the UNO
 *    bridge are children), the median of 5 samples a second apart, once idle and once after the jobs, each after
 *    the service has been quiet for 10 s. Targets (issue #19): API process ≤ 300 MB idle, ≤ 400 MB after 1,000 jobs.
 *  - Jobs go in as a key API caller sends them (upload, then `convert`, which answers once the worker has
 *    finished): small PNG → webp, 4 in flight.
 *  - Then the service is stopped (SIGTERM) and started again on the same DATA_DIR (its idle memory measured
 *    again): every 50th result of the run, and the last, must still be served from `/tmp/` (looked up in the
 *    database) and the same `convert` must answer the same URL; then a few more jobs, a `kill -9`, a start
 *    again, and those must be found too.
 *
 *   npm run bench:embedded-memory   (or: npx nx run api:build && node --conditions=@fileshift/source --import tsx bench/embedded-memory.ts)
 * EMBEDDED_MEMORY_JOBS (1000) changes the number of jobs. Needs Redis (its own QUEUE_PREFIX, keys removed at the
 * end), PostgreSQL for the baseline, LibreOffice as the service's workers expect it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { createBenchDatabase } from './support/database.js';
import { median } from './support/requests-per-second.js';
import { type TreeProcess, processTree } from './support/process-tree.js';
import { type BuiltService, spawnBuiltService, waitUntilConverts } from './support/service.js';

const JOBS = Number(process.env.EMBEDDED_MEMORY_JOBS ?? 1000);
const CLIENTS = 4;
const QUIET_MS = 10_000;
const JOBS_BEFORE_KILL = 20;
const METRICS_TOKEN = 'bench-embedded-memory-metrics';
/** Node's flags in `npm start` (`node <flags> apps/api/dist/main.js`), so the service runs as it would. */
const startScript = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.start!;
const npmStartNodeArgs = (/\bnode((?:\s+--\S+)*)\s+apps\/api\/dist\/main\.js/.exec(startScript)?.[1] ?? '').trim().split(/\s+/).filter(Boolean);
const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#36c' } }).png().toBuffer();

interface Memory {
  node: number;
  tree: number;
  /** The API process's JS heap in use and its external memory (PGlite's WASM memory is there), from its metrics. */
  heapUsed: number;
  external: number;
  /** Resident bytes by process name (anvil, soffice.bin, …), the API process under "node". */
  byName: Map<string, number>;
}
interface Result {
  database: string;
  startSeconds: number;
  idle: Memory;
  afterJobs: Memory;
  /** Idle again after a restart on the same data (the database now holds the run's rows). */
  idleAfterRestart: Memory;
  peakNode: number;
  jobsPerSecond: number;
  foundAfterRestart: string;
  foundAfterKill: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function heapFigures(service: BuiltService): Promise<{ heapUsed: number; external: number }> {
  const text = await (await fetch(`${service.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const figure = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  return { heapUsed: figure('nodejs_heap_size_used_bytes'), external: figure('nodejs_external_memory_bytes') };
}

async function sampleMemory(service: BuiltService): Promise<Memory> {
  const pid = service.child.pid!;
  const samples: TreeProcess[][] = [];
  for (let i = 0; i < 5; i++) {
    if (i > 0) await sleep(1000);
    samples.push(processTree(pid));
  }
  const byName = new Map<string, number>();
  const names = new Set(samples.flat().map((process) => (process.pid === pid ? 'node' : process.name)));
  for (const name of names) {
    byName.set(name, median(samples.map((tree) => tree.filter((p) => (p.pid === pid ? 'node' : p.name) === name).reduce((sum, p) => sum + p.rssBytes, 0))));
  }
  return {
    node: median(samples.map((tree) => tree[0]?.rssBytes ?? 0)),
    tree: median(samples.map((tree) => tree.reduce((sum, p) => sum + p.rssBytes, 0))),
    byName,
    ...(await heapFigures(service)),
  };
}

const api = (service: BuiltService, path: string, init: RequestInit) => fetch(`${service.baseUrl}${path}`, { ...init, headers: { accept: 'application/json', ...init.headers } });
const convert = (service: BuiltService, filename: string) =>
  api(service, '/api/v1/convert', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filename, ext_in: 'png', ext_out: 'webp' }) });

interface Job { filename: string; url: string }
/** One job as a key API caller makes it: upload, then convert. */
async function job(service: BuiltService, n: number): Promise<Job> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)]), `in-${n}.png`);
  const uploaded = await api(service, '/api/v1/upload', { method: 'POST', body: form });
  const { Filename, Message } = (await uploaded.json()) as { Filename?: string; Message?: string };
  if (uploaded.status !== 200 || !Filename) throw new Error(`upload answered ${uploaded.status}: ${Message}`);
  const converted = await convert(service, Filename);
  const body = (await converted.json()) as { file?: { urls: string[] }; Message?: string };
  if (converted.status !== 200 || body.file?.urls.length !== 1) throw new Error(`convert answered ${converted.status}: ${body.Message}`);
  return { filename: Filename, url: body.file.urls[0]! };
}

async function runJobs(service: BuiltService, count: number): Promise<Job[]> {
  const jobs: Job[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (next < count) {
      const n = next++;
      jobs[n] = await job(service, n);
    }
  }));
  return jobs;
}

/** Found: the result is served from /tmp/ as a webp, and the same convert answers the same URL without a new job. */
async function countFound(service: BuiltService, jobs: Job[]): Promise<string> {
  let found = 0;
  for (const { filename, url } of jobs) {
    const served = await fetch(`${service.baseUrl}${url}`);
    const bytes = Buffer.from(await served.arrayBuffer());
    const again = (await (await convert(service, filename)).json()) as { file?: { urls: string[] } };
    if (served.status === 200 && bytes.subarray(8, 12).toString('latin1') === 'WEBP' && again.file?.urls[0] === url) found++;
  }
  return `${found}/${jobs.length}`;
}

async function start(env: Record<string, string>): Promise<BuiltService> {
  const service = await spawnBuiltService({ ...env, METRICS_TOKEN }, undefined, npmStartNodeArgs);
  await waitUntilConverts(service, 'png', 'webp');
  return service;
}

/** SIGKILL the API process, then whatever it started that outlived it (anvil runs in a process group of its own). */
async function killHard(service: BuiltService): Promise<void> {
  const tree = processTree(service.child.pid!);
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  service.child.kill('SIGKILL');
  await exited;
  for (const { pid } of tree.slice(1)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone with its parent
    }
  }
}

async function measure(database: string, databaseUrl: string | undefined): Promise<Result> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fileshift-embedded-memory-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, QUEUE_PREFIX: `bench-embedded-memory-${process.pid}-${databaseUrl ? 'pg' : 'pglite'}` };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  let service: BuiltService | undefined;
  try {
    const started = performance.now();
    service = await start(env);
    const startSeconds = (performance.now() - started) / 1000;
    await sleep(QUIET_MS);
    const idle = await sampleMemory(service);

    let peakNode = 0;
    const pid = service.child.pid!;
    const sampler = setInterval(() => (peakNode = Math.max(peakNode, processTree(pid)[0]?.rssBytes ?? 0)), 200);
    const jobsStarted = performance.now();
    const jobs = await runJobs(service, JOBS).finally(() => clearInterval(sampler));
    const jobsPerSecond = JOBS / ((performance.now() - jobsStarted) / 1000);
    await sleep(QUIET_MS);
    const afterJobs = await sampleMemory(service);

    await service.stop();
    service = await start(env);
    await sleep(QUIET_MS);
    const idleAfterRestart = await sampleMemory(service);
    const foundAfterRestart = await countFound(service, [...jobs.filter((_, n) => n % 50 === 0), jobs.at(-1)!]);

    const beforeKill = await runJobs(service, JOBS_BEFORE_KILL);
    await killHard(service);
    service = await start(env);
    const foundAfterKill = await countFound(service, beforeKill);
    return { database, startSeconds, idle, afterJobs, idleAfterRestart, peakNode, jobsPerSecond, foundAfterRestart, foundAfterKill };
  } finally {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function removeQueueKeys(): Promise<void> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    for (const kind of ['pg', 'pglite']) {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [nextCursor, batch] = await redis.scan(cursor, 'MATCH', `bench-embedded-memory-${process.pid}-${kind}:*`, 'COUNT', 1000);
        cursor = nextCursor;
        keys.push(...batch);
      } while (cursor !== '0');
      if (keys.length > 0) await redis.del(...keys);
    }
  } finally {
    redis.disconnect();
  }
}

const describeOthers = (memory: Memory) =>
  [...memory.byName].filter(([name]) => name !== 'node').sort((a, b) => b[1] - a[1]).map(([name, bytes]) => `${name} ${mb(bytes)}`).join(', ');

const results: Result[] = [];
try {
  results.push(await measure('embedded PGlite (npm start)', undefined));
  const database = await createBenchDatabase();
  try {
    results.push(await measure('PostgreSQL (baseline)', database.url));
  } finally {
    await database.drop();
  }
} finally {
  await removeQueueKeys();
}

console.log(`embedded-memory: the built service as npm start runs it (node ${[...npmStartNodeArgs, 'apps/api/dist/main.js'].join(' ')}), ROLE=all, dev payments; ${JOBS} key API jobs (PNG 64×64 → webp), ${CLIENTS} in flight`);
console.log('RSS: median of 5 samples 1 s apart, after 10 s quiet. Targets for the embedded default: API process ≤ 300 MB idle, ≤ 400 MB after the jobs');
for (const result of results) {
  console.log(`\n${result.database}`);
  console.log(`  start to converting        ${result.startSeconds.toFixed(1)} s`);
  console.log(`  idle            API process ${mb(result.idle.node).padStart(7)}   whole tree ${mb(result.idle.tree).padStart(7)}   (${describeOthers(result.idle)})`);
  console.log(`  after ${JOBS} jobs  API process ${mb(result.afterJobs.node).padStart(7)}   whole tree ${mb(result.afterJobs.tree).padStart(7)}   (${describeOthers(result.afterJobs)})`);
  console.log(`  idle after a restart API process ${mb(result.idleAfterRestart.node).padStart(7)}   whole tree ${mb(result.idleAfterRestart.tree).padStart(7)}`);
  console.log(`  API process JS heap in use ${mb(result.idle.heapUsed)} idle, ${mb(result.afterJobs.heapUsed)} after; external memory ${mb(result.idle.external)} idle, ${mb(result.afterJobs.external)} after`);
  console.log(`  peak of the API process during the jobs ${mb(result.peakNode)}; ${result.jobsPerSecond.toFixed(1)} jobs/s`);
  console.log(`  found after a restart: ${result.foundAfterRestart}; after kill -9 and a start: ${result.foundAfterKill}`);
}
console.log('\nPostgreSQL\'s own server processes are not in the baseline\'s tree (they serve every database on this machine).');
