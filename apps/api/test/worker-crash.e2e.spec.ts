import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newJobId } from '../src/jobs/job-id.js';
import { JobName, QueueName } from '../src/queue/job-contract.js';
import { BUILT_MAIN, type ServiceProcess, spawnService, waitFor } from './support/service-process.js';
import { createTestEnvironment } from './support/test-app.js';

describe('a worker killed in the middle of a job', () => {
  let environment: Awaited<ReturnType<typeof createTestEnvironment>>;
  let db: pg.Client;
  const workers: ServiceProcess[] = [];

  beforeAll(async () => {
    environment = await createTestEnvironment({ LOG_LEVEL: 'info' });
    const migrated = spawnSync(process.execPath, [BUILT_MAIN.replace(/main\.js$/, 'migrate.js')], { env: { PATH: process.env.PATH, ...environment.variables }, encoding: 'utf8' });
    expect(migrated.status).toBe(0);
    db = new pg.Client({ connectionString: environment.variables.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await db?.end();
    await environment?.drop();
  });

  const statusOf = async (id: string) => (await db.query('SELECT status FROM conversion_jobs WHERE id = $1', [id])).rows[0]?.status as string;

  it('still ends done: another worker takes the stalled job over', async () => {
    // Twenty minutes of audio: long enough to kill the worker while ffmpeg encodes it.
    const jobId = newJobId();
    const dir = join(environment.variables.DATA_DIR!, 'files', 'jobs', jobId);
    mkdirSync(dir, { recursive: true });
    const wav = execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1200', '-ar', '22050', '-ac', '1', '-f', 'wav', 'pipe:1'], { maxBuffer: 200 * 1024 * 1024 });
    writeFileSync(join(dir, 'input'), wav);
    await db.query(
      `INSERT INTO conversion_jobs (id, status, original_filename, file_created_at, input_size_bytes, input_sha256, detected_input_format, target_format, request_fingerprint, expires_at)
       VALUES ($1, 'queued', 'long.wav', now(), $2, 'x', 'wav', 'flac', 'x', now() + interval '1 day')`,
      [jobId, wav.length],
    );
    const queue = new Queue(QueueName.Conversion, { connection: { url: environment.variables.REDIS_URL }, prefix: environment.variables.QUEUE_PREFIX });
    await queue.add(JobName.ConvertFile, { jobId }, { jobId, attempts: 3 });
    await queue.close();

    const first = spawnService({ ...environment.variables, ROLE: 'worker' });
    workers.push(first);
    await waitFor(async () => (await statusOf(jobId)) === 'processing', 30_000, 'the job to start');
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await statusOf(jobId)).toBe('processing');

    const second = spawnService({ ...environment.variables, ROLE: 'worker' });
    workers.push(second);
    await waitFor(async () => ['done', 'failed'].includes(await statusOf(jobId)), 90_000, 'the job to end');
    expect(await statusOf(jobId)).toBe('done');
  }, 150_000);
});
