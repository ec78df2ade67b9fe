import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type FailureType, SECRET_OPTION_NAMES } from '@fileshift/converters';
import { DataSource, type EntityManager, In } from 'typeorm';
import { ConversionJob, type ConversionJobStatus, type ResultManifest } from '../conversion-job.entity.js';

/** How a run ended, written only by the run that holds the job's lease. */
export type RunOutcome =
  | { status: 'done'; resultSizeBytes: number; resultCount: number; manifest: ResultManifest }
  | { status: 'failed'; failureType: FailureType; failureMessage: string };

/** A job as the reconciler sees it: with how many runs claimed it. */
export interface JobWithRuns {
  job: ConversionJob;
  runs: number;
}

const LEASE_EXPIRES = 'now() + make_interval(secs => $2)';
/** The job's row ($1), locked first (every change locks the job, then its lease: one order, no deadlock), when `condition` holds. */
const JOB_LOCKED = (condition: string) => `job AS (SELECT id FROM conversion_jobs WHERE id = $1 AND ${condition} FOR UPDATE)`;
/** The lease let go by its owner ($2). */
const LEASE_LET_GO = 'UPDATE job_leases SET owner = NULL, expires_at = NULL WHERE job_id = (SELECT id FROM job) AND owner = $2 RETURNING job_id';
/** The same, and the claim not counted: the run never started the conversion. */
const LEASE_LET_GO_UNRUN = 'UPDATE job_leases SET owner = NULL, expires_at = NULL, runs = runs - 1 WHERE job_id = (SELECT id FROM job) AND owner = $2 RETURNING job_id';

/**
 * The runs of conversion jobs: who holds a job (its lease record) and the state changes that depend on it. Every
 * change locks the job's row first, then reads or writes its lease, in one transaction: two runs never both hold a
 * job, nothing is written after a job ended, and a job is failed or requeued only while no live run holds it.
 */
@Injectable()
export class JobLeases {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Takes the job for one run: queued (or processing with no live lease) → processing under `owner`'s lease,
   * counting the run. Null when it cannot be taken (gone, finished, unpaid, or another run's lease is live).
   */
  async claim(id: string, owner: string, leaseSeconds: number): Promise<JobWithRuns | null> {
    const [row] = await this.rowsOf<Record<string, unknown> & { lease_runs: number }>(
      `WITH ${JOB_LOCKED(`status IN ('queued', 'processing')`)},
       lease AS (
         INSERT INTO job_leases AS l (job_id, owner, expires_at, runs) SELECT id, $3, ${LEASE_EXPIRES}, 1 FROM job
         ON CONFLICT (job_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at, runs = l.runs + 1
         WHERE l.owner IS NULL OR l.expires_at < now()
         RETURNING l.runs)
       UPDATE conversion_jobs j SET status = 'processing', progress_percent = 5, updated_at = now() FROM lease WHERE j.id = $1
       RETURNING j.*, lease.runs AS lease_runs`,
      [id, leaseSeconds, owner],
    );
    return row ? { job: this.hydrated(row), runs: row.lease_runs } : null;
  }

  /** The job's status and, while a run holds it, until when; null when the job is gone. */
  async holderOf(id: string): Promise<{ status: ConversionJobStatus; leaseExpiresAt: Date | null } | null> {
    const [row] = (await this.dataSource.query(
      `SELECT j.status, CASE WHEN l.owner IS NULL THEN NULL ELSE l.expires_at END AS lease_expires_at
       FROM conversion_jobs j LEFT JOIN job_leases l ON l.job_id = j.id WHERE j.id = $1`,
      [id],
    )) as Array<{ status: ConversionJobStatus; lease_expires_at: Date | null }>;
    return row ? { status: row.status, leaseExpiresAt: row.lease_expires_at } : null;
  }

  /** Extends `owner`'s lease (and writes the progress); false when the run lost the job (removed, ended, or its lease was taken). */
  async renew(id: string, owner: string, leaseSeconds: number, progressPercent?: number): Promise<boolean> {
    return this.changedWhileHeld(
      `status = 'processing'`,
      `UPDATE job_leases SET expires_at = ${LEASE_EXPIRES} WHERE job_id = (SELECT id FROM job) AND owner = $3 RETURNING job_id`,
      'progress_percent = COALESCE($4::integer, progress_percent), updated_at = now()',
      [id, leaseSeconds, owner, progressPercent ?? null],
    );
  }

  /**
   * Ends the run that holds the lease: done or failed, its secret options (a PDF's passwords) forgotten. False when that
   * run no longer holds the job.
   */
  async finish(id: string, owner: string, outcome: RunOutcome): Promise<boolean> {
    const [ending, values] =
      outcome.status === 'done'
        ? [`status = 'done', progress_percent = 100, result_size_bytes = $3, result_count = $4, result_manifest = $5`, [outcome.resultSizeBytes, outcome.resultCount, JSON.stringify(outcome.manifest)]]
        : [`status = 'failed', failure_type = $3, failure_message = $4`, [outcome.failureType, outcome.failureMessage]];
    const forget = `options = options - $${values.length + 3}::text[]`;
    return this.changedWhileHeld(`status = 'processing'`, LEASE_LET_GO, `${ending}, ${forget}, finished_at = now(), updated_at = now()`, [id, owner, ...values, SECRET_OPTION_NAMES]);
  }

  /**
   * Gives the job up without ending it (it will be retried); false when the run no longer held it. `unrun`: the run
   * never started the conversion (no engine for it here), so its claim is not counted among the job's interruptions.
   */
  async release(id: string, owner: string, { unrun = false } = {}): Promise<boolean> {
    return this.changedWhileHeld('true', unrun ? LEASE_LET_GO_UNRUN : LEASE_LET_GO, 'updated_at = now()', [id, owner]);
  }

  /** Ends an unfinished job no run holds (the reconciler's verdict). */
  async failUnheld(id: string, failureType: FailureType, failureMessage: string): Promise<boolean> {
    const failed = await this.withJobLocked(id, ['queued', 'processing'], async (db) => {
      if (await this.isHeld(db, id)) return null;
      await db.query(`UPDATE conversion_jobs SET status = 'failed', failure_type = $2, failure_message = $3, options = options - $4::text[], finished_at = now(), updated_at = now() WHERE id = $1`, [
        id,
        failureType,
        failureMessage,
        SECRET_OPTION_NAMES,
      ]);
      await db.query(`UPDATE job_leases SET owner = NULL, expires_at = NULL WHERE job_id = $1`, [id]);
      return true;
    });
    return failed === true;
  }

  /** processing → queued for a job whose run vanished (no live lease): it is dispatched again. */
  async requeue(id: string): Promise<boolean> {
    const requeued = await this.withJobLocked(id, ['processing'], async (db) => {
      if (await this.isHeld(db, id)) return null;
      await db.query(`UPDATE conversion_jobs SET status = 'queued', updated_at = now() WHERE id = $1`, [id]);
      await db.query(`UPDATE job_leases SET owner = NULL, expires_at = NULL WHERE job_id = $1`, [id]);
      return true;
    });
    return requeued === true;
  }

  /** Jobs in `status` last changed more than `graceSeconds` ago that no live run holds, oldest first, with their runs. */
  async findStale(status: ConversionJobStatus, graceSeconds: number, limit: number): Promise<JobWithRuns[]> {
    const rows = (await this.dataSource.query(
      `SELECT j.id, COALESCE(l.runs, 0) AS runs FROM conversion_jobs j LEFT JOIN job_leases l ON l.job_id = j.id
       WHERE j.status = $1 AND j.updated_at < now() - make_interval(secs => $2) AND (l.owner IS NULL OR l.expires_at < now())
       ORDER BY j.updated_at ASC LIMIT $3`,
      [status, graceSeconds, limit],
    )) as Array<{ id: string; runs: number }>;
    if (rows.length === 0) return [];
    const jobs = new Map((await this.dataSource.getRepository(ConversionJob).findBy({ id: In(rows.map((row) => row.id)) })).map((job) => [job.id, job]));
    return rows.flatMap((row) => (jobs.has(row.id) ? [{ job: jobs.get(row.id)!, runs: row.runs }] : []));
  }

  /**
   * One statement, so one round trip and one commit: locks the job's row when `jobIs` holds, then runs `leaseChange`
   * (an UPDATE of `job`'s lease RETURNING job_id, $2 or $3 naming the owner) and, when it changed the lease, sets
   * `jobChange` on the job. True when the job was changed.
   */
  private async changedWhileHeld(jobIs: string, leaseChange: string, jobChange: string, parameters: unknown[]): Promise<boolean> {
    const rows = await this.rowsOf(`WITH ${JOB_LOCKED(jobIs)}, lease AS (${leaseChange}) UPDATE conversion_jobs SET ${jobChange} WHERE id = (SELECT job_id FROM lease) RETURNING id`, parameters);
    return rows.length > 0;
  }

  /** A job row as the entity, from `RETURNING *` (what TypeORM's find would make of it). */
  private hydrated(row: Record<string, unknown>): ConversionJob {
    const metadata = this.dataSource.getMetadata(ConversionJob);
    const job = metadata.create() as ConversionJob;
    for (const column of metadata.columns) column.setEntityValue(job, this.dataSource.driver.prepareHydratedValue(row[column.databaseName], column));
    return job;
  }

  /** Runs `change` with the job's row locked when it is in one of `statuses`; null otherwise. */
  private withJobLocked<T>(id: string, statuses: readonly ConversionJobStatus[], change: (db: EntityManager) => Promise<T | null>): Promise<T | null> {
    return this.dataSource.transaction(async (db) => {
      const [job] = (await db.query(`SELECT status FROM conversion_jobs WHERE id = $1 FOR UPDATE`, [id])) as Array<{ status: ConversionJobStatus }>;
      if (!job || !statuses.includes(job.status)) return null;
      return change(db);
    });
  }

  /** The rows a statement returned, whatever its kind (TypeORM answers UPDATE … RETURNING as [rows, count]). */
  private async rowsOf<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    const runner = this.dataSource.createQueryRunner();
    try {
      return (await runner.query(sql, parameters, true)).records as T[];
    } finally {
      await runner.release();
    }
  }

  private async isHeld(db: EntityManager, id: string): Promise<boolean> {
    return (await db.query(`SELECT 1 FROM job_leases WHERE job_id = $1 AND owner IS NOT NULL AND expires_at >= now() FOR UPDATE`, [id])).length > 0;
  }
}
