import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DevChain } from '@fileshift/devchain';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppConfig, loadConfig } from '../src/config/app-config.js';
import { jobInputKey, jobOutputKey } from '../src/conversion-jobs/job-storage-keys.js';
import { createFileStorage } from '../src/storage/create-file-storage.js';
import { startPrivatePostgres, type PrivatePostgres } from './support/private-postgres.js';
import { startPrivateRedis, type PrivateRedis } from './support/private-redis.js';
import { freePort, type ServiceProcess, spawnService, waitFor } from './support/service-process.js';
import { runPurgeExpired } from './support/test-queue.js';
import { payingFetch } from './support/x402-payer.js';

/**
 * Paid jobs under faults, with everything real: the built service as separate API and worker processes,
 * a private Redis and a private PostgreSQL the test kills and restarts, the dev chain settling every fee.
 * Both deployments use the DEFAULT queue prefix: the Redis is private, so nothing else shares it.
 */
describe('paid jobs survive faults: every job ends, every fee settles once, nothing is left behind', () => {
  let chain: DevChain;
  let redis: PrivateRedis;
  let postgres: PrivatePostgres;
  let a: Deployment;
  let pay: typeof fetch;
  let payToBefore: bigint;
  const processes: ServiceProcess[] = [];
  const workDirs: string[] = [];
  /** Every paid job the clients were promised (a 202), per deployment. */
  const accepted = new Map<Deployment, Set<string>>();
  /** What each fault did, for the figures: client retries, and what the reconcilers logged. */
  const observed: string[] = [];
  let retries = 0;

  const wav = (seconds: number) =>
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-ar', '22050', '-ac', '1', '-f', 'wav', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 });
  let shortWav: Buffer;

  interface Deployment {
    name: string;
    databaseUrl: string;
    config: AppConfig;
    env: Record<string, string>;
    api: ServiceProcess;
    apiUrl: string;
    worker: ServiceProcess;
    db: pg.Pool;
  }

  async function startDeployment(name: string): Promise<Deployment> {
    const databaseUrl = await postgres.createDatabase(`faults_${name}`);
    const dataDir = mkdtempSync(join(tmpdir(), `fileshift-faults-${name}-`));
    workDirs.push(dataDir);
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      DEVCHAIN_RPC_URL: chain.rpcUrl,
      LOG_LEVEL: 'info',
      JOB_LEASE_SECONDS: '10',
      JOB_RECONCILE_INTERVAL_SECONDS: '2',
      X402_RATE_LIMIT_PER_MINUTE: '100000',
    };
    const loaded = loadConfig(env, 'test');
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    const deployment: Deployment = {
      name,
      databaseUrl,
      config: loaded.config,
      env,
      ...(await startApi(env)),
      worker: await startWorker(env),
      db: new pg.Pool({ connectionString: databaseUrl, max: 2 }),
    };
    deployment.db.on('error', () => undefined);
    accepted.set(deployment, new Set());
    return deployment;
  }

  async function startApi(env: Record<string, string>, extra: Record<string, string> = {}): Promise<{ api: ServiceProcess; apiUrl: string }> {
    const port = await freePort();
    const api = spawnService({ ...env, ...extra, ROLE: 'api', PORT: String(port) });
    processes.push(api);
    const apiUrl = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${apiUrl}/api/x402/v1/health`)).ok, 60_000, `the api process\n${api.output()}`);
    return { api, apiUrl };
  }

  async function startWorker(env: Record<string, string>): Promise<ServiceProcess> {
    const worker = spawnService({ ...env, ROLE: 'worker' });
    processes.push(worker);
    await waitFor(async () => worker.output().includes('worker started'), 60_000, `the worker process\n${worker.output()}`);
    return worker;
  }

  const form = (file: Buffer, filename: string, target: string) => {
    const body = new FormData();
    for (const [field, value] of Object.entries({ target_format: target, filename, created_at: '2026-11-01T10:00:00Z', size_bytes: file.length })) body.append(field, String(value));
    body.append('file', new Blob([file], { type: 'application/octet-stream' }), filename);
    return body;
  };

  /**
   * A paying client as the SDK is one: it sends an Idempotency-Key and, when the answer is lost or says
   * "retry" (a network error, 5xx, 409 while the key is being paid for, a settlement that failed and
   * charged nothing), sends the same request again.
   */
  async function submit(deployment: Deployment, file: Buffer, target = 'mp3', apiUrl = deployment.apiUrl, key = `faults-${randomBytes(9).toString('base64url')}`): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const answer = await pay(`${apiUrl}/api/x402/v1/convert-file`, { method: 'POST', body: form(file, 'tone.wav', target), headers: { 'Idempotency-Key': key } }).catch((error: Error) => error);
      if (!(answer instanceof Error) && answer.status === 202) {
        const { job_id: jobId } = (await answer.json()) as { job_id: string };
        accepted.get(deployment)!.add(jobId);
        return jobId;
      }
      // 402 after paying: the settlement failed and nothing was charged (the challenge says so); pay again.
      const settlementFailed = !(answer instanceof Error) && answer.status === 402 && /settlement_failed/.test(answer.headers.get('payment-required') ? Buffer.from(answer.headers.get('payment-required')!, 'base64').toString() : '');
      const retryable = answer instanceof Error || answer.status >= 500 || answer.status === 409 || settlementFailed;
      if (!retryable || attempt >= 40) throw new Error(`submission failed: ${answer instanceof Error ? answer.message : `${answer.status} ${await answer.text()}`}`);
      retries++;
      await sleep(500);
    }
  }

  const statusOf = async (deployment: Deployment, jobId: string) =>
    ((await deployment.db.query('SELECT status FROM conversion_jobs WHERE id = $1', [jobId]).catch(() => ({ rows: [] }))).rows[0]?.status as string | undefined) ?? 'missing';

  async function waitUntilEnded(deployment: Deployment, jobIds: Iterable<string>, timeoutMs = 120_000): Promise<void> {
    const ids = [...jobIds];
    await waitFor(async () => (await Promise.all(ids.map((id) => statusOf(deployment, id)))).every((s) => s === 'done' || s === 'failed'), timeoutMs, `jobs of ${deployment.name} to end:\n${deployment.worker.output().slice(-3000)}`);
  }

  async function buyResult(deployment: Deployment, jobId: string): Promise<void> {
    const response = await pay(`${deployment.apiUrl}/api/x402/v1/convert-file/${jobId}/result`);
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await fetch(((await response.json()) as { download_url: string }).download_url)).status).toBe(200);
  }

  beforeAll(async () => {
    [chain, redis, postgres] = await Promise.all([DevChain.start(), startPrivateRedis(), startPrivatePostgres()]);
    pay = payingFetch(chain, privateKeyToAccount(chain.payerPrivateKeys[3]!));
    shortWav = wav(30);
    payToBefore = await chain.usdcBalanceOf(chain.payTo);
    a = await startDeployment('a');
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop('SIGKILL')));
    for (const deployment of accepted.keys()) await deployment.db.end();
    await Promise.all([redis?.stop(), postgres?.stop(), chain?.stop()]);
    for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
  });

  const reconcilerLinesSeen = new Map<ServiceProcess, number>();
  /** Client retries and reconciler actions since the last call, as one line of figures. */
  function observe(fault: string): void {
    const actions = processes.flatMap((process) => {
      const lines = [...process.output().matchAll(/reconciled jobs: ([^"]+)/g)].map((match) => match[1]!);
      const fresh = lines.slice(reconcilerLinesSeen.get(process) ?? 0);
      reconcilerLinesSeen.set(process, lines.length);
      return fresh;
    });
    observed.push(`${fault}: ${retries} client retries; reconciler: ${actions.join(' | ') || 'nothing to do'}`);
    retries = 0;
  }

  it('Redis killed mid-batch and restarted empty: the jobs it lost are enqueued again and end', async () => {
    // With the queue paused, the first jobs wait in Redis only: killing it loses them for sure.
    const media = new Queue('conversion-media', { connection: { url: redis.url }, prefix: 'fileshift' });
    await media.pause();
    await media.close();
    const jobs: string[] = [];
    for (let i = 0; i < 4; i++) jobs.push(await submit(a, shortWav));
    await redis.kill();
    // Payments and the job records need no Redis, nor does the API's memory of the workers: these are accepted while it is down.
    for (let i = 0; i < 3; i++) jobs.push(await submit(a, shortWav));
    await redis.start();
    for (let i = 0; i < 3; i++) jobs.push(await submit(a, shortWav));
    await waitUntilEnded(a, jobs);
    await buyResult(a, jobs[5]!);
    const enqueued = [...a.worker.output().matchAll(/reconciled jobs: [^"]*enqueued (\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
    expect(enqueued).toBeGreaterThanOrEqual(4);
    observe('Redis killed and restarted');
  }, 180_000);

  it('PostgreSQL restarted mid-batch: requests caught by it are retried by the client, runs resume', async () => {
    const submitting = Array.from({ length: 15 }, async (_, i) => {
      await sleep(i * 250);
      return submit(a, shortWav);
    });
    await sleep(1000);
    await postgres.restart('fast');
    const jobs = await Promise.all(submitting);
    await waitUntilEnded(a, jobs);
    await buyResult(a, jobs[14]!);
    observe('PostgreSQL restarted');
  }, 180_000);

  it('the worker SIGKILLed mid-batch: a new worker takes the runs over once their leases run out', async () => {
    // AAC encoding of a minute of audio takes over a second: the kill finds runs in flight.
    const minute = wav(60);
    const jobs = await Promise.all(Array.from({ length: 10 }, () => submit(a, minute, 'm4a')));
    await waitFor(async () => (await Promise.all(jobs.map((id) => statusOf(a, id)))).includes('processing'), 30_000, 'a job to start');
    a.worker.child.kill('SIGKILL');
    await a.worker.exited;
    a.worker = await startWorker(a.env);
    await waitUntilEnded(a, jobs);
    const rerun = await claimedTwice(a, jobs);
    expect(rerun).toBeGreaterThan(0);
    observe(`worker SIGKILLed mid-run (${rerun} jobs run again by the new worker)`);
  }, 180_000);

  it('the API SIGKILLed after settlement and before the enqueue: the reconciler, or the client\'s retry, hands the paid jobs to the queue', async () => {
    const paused = await startApi(a.env, { FAULT_PAUSE_BEFORE_ENQUEUE_MS: '120000' });
    const keys = Array.from({ length: 5 }, (_, i) => `paused-${i}-${randomBytes(6).toString('hex')}`);
    // One attempt each: the process answering them dies, and these clients give up.
    const lost = keys.map((key) =>
      pay(`${paused.apiUrl}/api/x402/v1/convert-file`, { method: 'POST', body: form(shortWav, 'tone.wav', 'mp3'), headers: { 'Idempotency-Key': key } }).catch(() => undefined),
    );
    await waitFor(async () => (paused.api.output().match(/fault injection: job \S+ is paid and queued/g) ?? []).length === keys.length, 60_000, `five paid jobs to pause\n${paused.api.output().slice(-2000)}`);
    paused.api.child.kill('SIGKILL');
    await Promise.all(lost);
    const jobIds = [...paused.api.output().matchAll(/fault injection: job (\S+) is paid and queued/g)].map((match) => match[1]!);
    for (const id of jobIds) accepted.get(a)!.add(id);
    // Two clients retry with their key and get their job (free); the reconciler hands the other three over.
    const retried = await Promise.all(keys.slice(0, 2).map((key) => submit(a, shortWav, 'mp3', a.apiUrl, key)));
    expect(jobIds).toEqual(expect.arrayContaining(retried));
    await waitUntilEnded(a, jobIds);
    observe('API SIGKILLed between settlement and enqueue');
  }, 180_000);

  it('DELETE during a running conversion kills the engine and leaves no input, output or scratch file', async () => {
    const long = wav(900);
    const jobIds = await Promise.all([submit(a, long, 'm4a'), submit(a, long, 'm4a')]);
    await waitFor(async () => (await Promise.all(jobIds.map((id) => statusOf(a, id)))).every((s) => s === 'processing'), 60_000, 'both long jobs to run');
    await waitFor(async () => jobIds.every((id) => enginesOf(id) > 0), 30_000, 'both engines to run');
    for (const id of jobIds) {
      const deleted = await fetch(`${a.apiUrl}/api/x402/v1/convert-file/${id}/delete`, { method: 'DELETE' });
      expect(deleted.status).toBe(200);
      accepted.get(a)!.delete(id);
    }
    // The runs notice at their next heartbeat (2 s) and kill their engines' process trees.
    await waitFor(async () => jobIds.every((id) => enginesOf(id) === 0), 15_000, 'the engines to be killed');
    const storage = createFileStorage(a.config);
    await waitFor(async () => !(await Promise.all(jobIds.map((id) => storage.exists(jobOutputKey(id, 'm4a'))))).includes(true), 15_000, 'the outputs to go');
    for (const id of jobIds) {
      expect(await storage.exists(jobInputKey(id))).toBe(false);
      expect((await fetch(`${a.apiUrl}/api/x402/v1/convert-file/${id}/status`)).status).toBe(410);
    }
    await waitFor(async () => scratchOf(a).every((dir) => !jobIds.some((id) => dir.includes(id))), 15_000, 'the scratch directories to go');
  }, 180_000);

  it('two deployments on one Redis with the default prefix: each runs its own jobs, leaves the other\'s alone and says so', async () => {
    // Deployment A announced itself on the prefix again after Redis came back empty.
    await waitFor(async () => Object.keys(await hgetall(redis.url, 'fileshift:deployments')).length > 0, 60_000, 'deployment A to announce itself');
    const b = await startDeployment('b');
    expect(b.api.output()).toMatch(/QUEUE_PREFIX .+fileshift.+ is also used by another deployment on this Redis/);
    expect(b.worker.output()).toMatch(/QUEUE_PREFIX .+fileshift.+ is also used by another deployment on this Redis/);
    const [ofA, ofB] = await Promise.all([Promise.all(Array.from({ length: 5 }, () => submit(a, shortWav))), Promise.all(Array.from({ length: 5 }, () => submit(b, shortWav)))]);
    await Promise.all([waitUntilEnded(a, ofA), waitUntilEnded(b, ofB)]);
    for (const id of ofA) expect(await statusOf(b, id)).toBe('missing');
    for (const id of ofB) expect(await statusOf(a, id)).toBe('missing');
    expect(a.worker.output() + b.worker.output()).toMatch(/leaving job \S+ \(conversion\.convert-\w+\) alone: it belongs to deployment/);
    await buyResult(b, ofB[0]!);
  }, 180_000);

  it('in all: every paid job ended, every fee settled exactly once on chain, no result without its own settlement; expiry leaves no file', async () => {
    const figures: string[] = [];
    let ledgerSettled = 0n;
    let jobsInAll = 0;
    for (const [deployment, jobIds] of accepted) {
      const ids = [...jobIds];
      jobsInAll += ids.length;
      const statuses = await Promise.all(ids.map((id) => statusOf(deployment, id)));
      const unfinished = (await deployment.db.query(`SELECT id, status FROM conversion_jobs WHERE status NOT IN ('done', 'failed')`)).rows;
      expect(unfinished).toEqual([]);
      const fees = (await deployment.db.query(
        `SELECT job_id, count(*)::int AS n, array_agg(tx_hash) AS txs FROM payment_records WHERE endpoint = 'createConversionJob' AND status = 'settled' GROUP BY job_id`,
      )).rows as Array<{ job_id: string; n: number; txs: string[] }>;
      const feeOf = new Map(fees.map((fee) => [fee.job_id, fee]));
      for (const id of ids) expect(feeOf.get(id)?.n, `fee of ${id}`).toBe(1);
      // No settled fee without a job that was promised (or deleted on request).
      const deleted = new Set((await deployment.db.query(`SELECT job_id FROM job_tombstones`)).rows.map((row: { job_id: string }) => row.job_id));
      for (const fee of fees) expect(jobIds.has(fee.job_id) || deleted.has(fee.job_id), `fee of ${fee.job_id}`).toBe(true);
      const results = (await deployment.db.query(
        `SELECT j.id, (SELECT count(*)::int FROM payment_records p WHERE p.job_id = j.id AND p.endpoint = 'purchaseConversionResult' AND p.status = 'settled') AS n
           FROM conversion_jobs j JOIN x402_result_purchases r ON r.job_id = j.id WHERE r.state = 'paid'`,
      )).rows as Array<{ id: string; n: number }>;
      for (const result of results) expect(result.n, `settlement of the result of ${result.id}`).toBe(1);
      const txs = (await deployment.db.query(`SELECT tx_hash, amount_atomic FROM payment_records WHERE status = 'settled'`)).rows as Array<{ tx_hash: `0x${string}`; amount_atomic: string }>;
      for (const tx of txs) expect((await chain.publicClient.getTransactionReceipt({ hash: tx.tx_hash })).status).toBe('success');
      expect(new Set(txs.map((tx) => tx.tx_hash)).size).toBe(txs.length);
      ledgerSettled += txs.reduce((sum, tx) => sum + BigInt(tx.amount_atomic), 0n);
      const count = (status: string) => statuses.filter((s) => s === status).length;
      figures.push(`deployment ${deployment.name}: ${ids.length} paid jobs, ${count('done')} done, ${count('failed')} failed, ${deleted.size} deleted mid-run; ${fees.length} job fees settled once each; ${results.length} results bought, each with its own settlement`);

      // Expiry: the purge removes every job's files; and no run left a scratch directory.
      await deployment.db.query(`UPDATE conversion_jobs SET expires_at = now() - interval '1 second'`);
      await runPurgeExpired({ redisUrl: redis.url, prefix: 'fileshift', databaseUrl: deployment.databaseUrl }, 60_000);
      const storage = createFileStorage(deployment.config);
      const left = [];
      for (const id of [...ids, ...deleted]) {
        for (const key of [jobInputKey(id), jobOutputKey(id, 'mp3'), jobOutputKey(id, 'm4a')]) if (await storage.exists(key)) left.push(key);
      }
      expect(left).toEqual([]);
      expect(scratchOf(deployment)).toEqual([]);
    }
    // The chain agrees with the ledgers: every settled payment moved exactly its amount to payTo, once.
    const received = (await chain.usdcBalanceOf(chain.payTo)) - payToBefore;
    figures.push(`${jobsInAll} paid jobs in all; payTo received ${received} atomic USDC on chain, the ledgers record ${ledgerSettled}`);
    process.stdout.write(`\nfaults e2e figures:\n  ${[...observed, ...figures].join('\n  ')}\n`);
    expect(jobsInAll).toBe(50);
    expect(received).toBe(ledgerSettled);
  }, 180_000);

  /** How many of the jobs were claimed by more than one run (a run of the killed worker, then one of the new). */
  async function claimedTwice(deployment: Deployment, jobIds: string[]): Promise<number> {
    return (await deployment.db.query('SELECT count(*)::int AS n FROM job_leases WHERE job_id = ANY($1) AND runs > 1', [jobIds])).rows[0].n as number;
  }

  /** Engine processes whose command line names the job (its scratch directory does). */
  function enginesOf(jobId: string): number {
    try {
      return execFileSync('pgrep', ['-f', `ffmpeg .*${jobId}`], { encoding: 'utf8' }).split('\n').filter(Boolean).length;
    } catch {
      return 0;
    }
  }

  async function hgetall(url: string, key: string): Promise<Record<string, string>> {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await client.connect();
      return await client.hgetall(key);
    } finally {
      client.disconnect();
    }
  }

  function scratchOf(deployment: Deployment): string[] {
    return existsSync(deployment.config.scratchDir) ? readdirSync(deployment.config.scratchDir) : [];
  }
});
