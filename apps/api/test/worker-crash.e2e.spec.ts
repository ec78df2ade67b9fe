import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import pg from 'pg';
import { ConversionGraph, ENGINE_DESCRIPTORS } from '@fileshift/converters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newJobId } from '../src/conversion-jobs/job-id.js';
import { jobInputKey } from '../src/conversion-jobs/job-storage-keys.js';
import { CONVERT_JOB_OPTIONS } from '../src/conversion-jobs/job-runs.js';
import { JobName } from '../src/queue/job-contract.js';
import { createFileStorage } from '../src/storage/create-file-storage.js';
import { BUILT_MAIN, type ServiceProcess, spawnService, waitFor } from './support/service-process.js';
import { createTestEnvironment } from './support/test-app.js';
import { enqueueFor } from './support/test-queue.js';

describe('a worker killed in the middle of a job', () => {
  let environment: Awaited<ReturnType<typeof createTestEnvironment>>;
  let db: pg.Client;
  const workers: ServiceProcess[] = [];

  beforeAll(async () => {
    environment = await createTestEnvironment({ LOG_LEVEL: 'info', JOB_LEASE_SECONDS: '10' });
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
    const wav = execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1200', '-ar', '22050', '-ac', '1', '-f', 'wav', 'pipe:1'], { maxBuffer: 200 * 1024 * 1024 });
    await createFileStorage(environment.config()).put(jobInputKey(jobId), Readable.from([wav]));
    await db.query(
      `INSERT INTO conversion_jobs (id, status, original_filename, file_created_at, input_size_bytes, input_sha256, detected_input_format, target_format, plan, fallback_plans, engine_class, options, delivery, request_fingerprint, expires_at)
       VALUES ($1, 'queued', 'long.wav', now(), $2, 'x', 'wav', 'flac', $3, '[]', 'media', '{}', 'parts', 'x', now() + interval '1 day')`,
      [jobId, wav.length, JSON.stringify(new ConversionGraph(ENGINE_DESCRIPTORS).plan('wav', 'flac'))],
    );
    const target = { redisUrl: environment.variables.REDIS_URL!, prefix: environment.variables.QUEUE_PREFIX!, databaseUrl: environment.variables.DATABASE_URL! };
    await enqueueFor(target, JobName.ConvertMedia, { jobId }, { jobId, ...CONVERT_JOB_OPTIONS });

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
    // The killed worker's scratch directory went with the second worker's start; the second removed its own.
    expect(readdirSync(environment.config().scratchDir)).toEqual([]);
  }, 150_000);
});
