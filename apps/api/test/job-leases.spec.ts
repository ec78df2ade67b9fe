import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobLeases, type RunOutcome } from '../src/conversion-jobs/worker/job-leases.repository.js';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { runMigrations } from '../src/database/run-migrations.js';
import { SCHEMA } from '../src/schema.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const PLAN = { steps: [{ engine: 'sharp', from: 'png', to: 'webp', options: [] }] };
const DONE: RunOutcome = { status: 'done', resultSizeBytes: 42, resultCount: 1, manifest: { steps: [{ engine: 'sharp', version: 'v', from: 'png', to: 'webp' }], files: [{ sha256: 'ab', sizeBytes: 42 }] } };

/**
 * The job cycle's guarantees, one statement per change (each locks the job's row, then its lease): at most one run
 * holds a job, only the holder ends it, nothing is written after it ended. On PostgreSQL and on embedded PGlite.
 */
describe.each(['PostgreSQL', 'embedded PGlite'])('job leases on %s', (kind) => {
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let dataSource: DataSource;
  let leases: JobLeases;

  beforeAll(async () => {
    if (kind === 'PostgreSQL') database = await createTestDatabase();
    else dataDir = mkdtempSync(join(tmpdir(), 'fileshift-leases-'));
    dataSource = await new DataSource(dataSourceOptions({ databaseUrl: database?.url, dataDir: dataDir ?? '.' }, SCHEMA)).initialize();
    await runMigrations(dataSource);
    leases = new JobLeases(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function queuedJob(): Promise<string> {
    const id = `job_${randomBytes(12).toString('base64url')}`;
    await dataSource.query(
      `INSERT INTO conversion_jobs (id, status, original_filename, file_created_at, input_size_bytes, input_sha256, detected_input_format, target_format, plan, fallback_plans, engine_class, options, delivery, request_fingerprint, expires_at)
       VALUES ($1, 'queued', 'a.png', now(), 1234, 'x', 'png', 'webp', $2, '[]', 'images', '{"quality":80}', 'parts', 'x', now() + interval '1 day')`,
      [id, JSON.stringify(PLAN)],
    );
    return id;
  }
  const jobRow = async (id: string) =>
    ((await dataSource.query('SELECT status, progress_percent, result_size_bytes::integer AS result_size_bytes, failure_type, finished_at FROM conversion_jobs WHERE id = $1', [id])) as Array<Record<string, unknown>>)[0]!;

  it('a claim takes a queued job for one run and answers it as the entity; no second run while the lease lives', async () => {
    const id = await queuedJob();
    const claimed = await leases.claim(id, 'owner-a', 60);
    expect(claimed?.runs).toBe(1);
    expect(claimed?.job).toMatchObject({ id, status: 'processing', progressPercent: 5, inputSizeBytes: 1234, plan: PLAN, options: { quality: 80 }, fallbackPlans: [] });
    expect(claimed?.job.createdAt).toBeInstanceOf(Date);
    expect(await leases.claim(id, 'owner-b', 60)).toBeNull();
    expect((await leases.holderOf(id))?.status).toBe('processing');
    expect(await leases.claim('job_missing', 'owner-b', 60)).toBeNull();
  });

  it('of claims at the same moment, exactly one holds the job', async () => {
    const id = await queuedJob();
    const claims = await Promise.all(['a', 'b', 'c', 'd'].map((owner) => leases.claim(id, owner, 60)));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('only the holder renews, writes progress and ends the job; nothing is written after it ended', async () => {
    const id = await queuedJob();
    await leases.claim(id, 'owner-a', 60);
    expect(await leases.renew(id, 'owner-b', 60, 50)).toBe(false);
    expect(await leases.renew(id, 'owner-a', 60, 40)).toBe(true);
    expect(await leases.renew(id, 'owner-a', 60)).toBe(true);
    expect((await jobRow(id)).progress_percent).toBe(40);
    expect(await leases.finish(id, 'owner-b', DONE)).toBe(false);
    expect(await leases.finish(id, 'owner-a', DONE)).toBe(true);
    expect(await jobRow(id)).toMatchObject({ status: 'done', progress_percent: 100, result_size_bytes: 42 });
    expect(await leases.renew(id, 'owner-a', 60, 70)).toBe(false);
    expect(await leases.finish(id, 'owner-a', { status: 'failed', failureType: 'timeout', failureMessage: 'late' })).toBe(false);
    expect(await leases.claim(id, 'owner-c', 60)).toBeNull();
    expect(await jobRow(id)).toMatchObject({ status: 'done', progress_percent: 100, failure_type: null });
  });

  it('a released job is claimed again, its runs counted; a lapsed lease is taken over and its old holder can end nothing', async () => {
    const id = await queuedJob();
    await leases.claim(id, 'owner-a', 60);
    expect(await leases.release(id, 'owner-b')).toBe(false);
    expect(await leases.release(id, 'owner-a')).toBe(true);
    expect((await leases.claim(id, 'owner-b', 0))?.runs).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the lease of 0 s has lapsed
    expect((await leases.claim(id, 'owner-c', 60))?.runs).toBe(3);
    expect(await leases.renew(id, 'owner-b', 60)).toBe(false);
    expect(await leases.finish(id, 'owner-b', DONE)).toBe(false);
    expect(await leases.finish(id, 'owner-c', { status: 'failed', failureType: 'timeout', failureMessage: 'too slow' })).toBe(true);
    expect(await jobRow(id)).toMatchObject({ status: 'failed', failure_type: 'timeout' });
    expect((await jobRow(id)).finished_at).toBeInstanceOf(Date);
  });

  it('a job handed on unrun (no engine for it on that worker) is not counted among its runs', async () => {
    const id = await queuedJob();
    await leases.claim(id, 'owner-a', 60);
    expect(await leases.release(id, 'owner-b', { unrun: true })).toBe(false);
    expect(await leases.release(id, 'owner-a', { unrun: true })).toBe(true);
    expect((await leases.claim(id, 'owner-b', 60))?.runs).toBe(1);
    expect(await leases.release(id, 'owner-b')).toBe(true);
    expect((await leases.claim(id, 'owner-c', 60))?.runs).toBe(2);
  });
});
