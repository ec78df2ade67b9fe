import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { ConversionOptions, ConversionPlan, FailureType } from '@fileshift/converters';
import { LessThan, LessThanOrEqual, type Repository } from 'typeorm';
import { ConversionJob, type ConversionJobOrigin, type ConversionJobStatus } from './conversion-job.entity.js';
import { JobTombstone } from './job-tombstone.entity.js';

/** What either API decides about a new job; everything else starts the same for every job. */
export interface NewJob {
  id: string;
  origin: ConversionJobOrigin;
  apiKeyId: string | null;
  /** `awaiting_payment` until its fee settles (x402), `queued` when nothing is owed (key API). */
  status: Extract<ConversionJobStatus, 'awaiting_payment' | 'queued'>;
  originalFilename: string;
  fileCreatedAt: Date;
  inputSizeBytes: number;
  inputSha256: string;
  detectedInputFormat: string;
  targetFormat: string;
  plan: ConversionPlan;
  options: ConversionOptions;
  idempotencyKey: string | null;
  requestFingerprint: string;
  /** The key API fixes its /tmp/ name at creation. */
  download?: { token: string; expiresAt: Date };
  expiresAt: Date;
}

/** How a run ended, written only by the run that holds the job's lease. */
export type RunOutcome =
  | { status: 'done'; resultSizeBytes: number; resultCount: number }
  | { status: 'failed'; failureType: FailureType; failureMessage: string };

const LEASE_EXPIRES = 'now() + make_interval(secs => :leaseSeconds)';

/**
 * The conversion jobs in PostgreSQL. Every change of a job's state is conditional on the state it
 * comes from (and, while a worker runs it, on that worker's lease): the affected row count decides,
 * so two workers can never both run a job and nothing is written after a job ended.
 */
@Injectable()
export class ConversionJobsRepository {
  constructor(
    @InjectRepository(ConversionJob) private readonly jobs: Repository<ConversionJob>,
    @InjectRepository(JobTombstone) private readonly tombstones: Repository<JobTombstone>,
  ) {}

  /** The one place a job record is written. */
  create(job: NewJob): Promise<ConversionJob> {
    const { download, ...fields } = job;
    return this.jobs.save(
      this.jobs.create({
        ...fields,
        engineClass: job.plan.engineClass,
        progressPercent: 0,
        resultSizeBytes: null,
        resultCount: null,
        failureType: null,
        failureMessage: null,
        finishedAt: null,
        resultPurchase: null,
        downloadToken: download?.token ?? null,
        downloadExpiresAt: download?.expiresAt ?? null,
        leaseOwner: null,
        leaseExpiresAt: null,
        attempts: 0,
      }),
    );
  }

  find(id: string): Promise<ConversionJob | null> {
    return this.jobs.findOneBy({ id });
  }

  findByIdempotencyKey(key: string): Promise<ConversionJob | null> {
    return this.jobs.findOneBy({ idempotencyKey: key });
  }

  findByDownloadToken(token: string): Promise<ConversionJob | null> {
    return this.jobs.findOneBy({ downloadToken: token });
  }

  /** awaiting_payment → queued, once its fee settled. */
  async markPaid(id: string): Promise<boolean> {
    return this.changed(this.jobs.createQueryBuilder().update().set({ status: 'queued' }).where("id = :id AND status = 'awaiting_payment'", { id }));
  }

  /**
   * Takes the job for one run: queued (or processing with no live lease) → processing under `owner`'s
   * lease, counting the attempt. Null when it cannot be taken (gone, finished, unpaid, or another run's lease is live).
   */
  async claim(id: string, owner: string, leaseSeconds: number): Promise<ConversionJob | null> {
    const claimed = await this.changed(
      this.jobs
        .createQueryBuilder()
        .update()
        .set({ status: 'processing', leaseOwner: owner, leaseExpiresAt: () => LEASE_EXPIRES, attempts: () => 'attempts + 1', progressPercent: 5 })
        .where("id = :id AND status IN ('queued', 'processing') AND (lease_owner IS NULL OR lease_expires_at < now())", { id })
        .setParameters({ leaseSeconds }),
    );
    return claimed ? this.find(id) : null;
  }

  /** Extends `owner`'s lease (and writes the progress); false when the run lost the job (removed, or its lease was taken). */
  async renewLease(id: string, owner: string, leaseSeconds: number, progressPercent?: number): Promise<boolean> {
    return this.changed(
      this.jobs
        .createQueryBuilder()
        .update()
        .set({ leaseExpiresAt: () => LEASE_EXPIRES, ...(progressPercent === undefined ? {} : { progressPercent }) })
        .where("id = :id AND lease_owner = :owner AND status = 'processing'", { id, owner })
        .setParameters({ leaseSeconds }),
    );
  }

  /** Ends the run that holds the lease: done or failed. False when that run no longer holds the job. */
  async finishRun(id: string, owner: string, outcome: RunOutcome): Promise<boolean> {
    const ended =
      outcome.status === 'done'
        ? { status: 'done' as const, progressPercent: 100, resultSizeBytes: outcome.resultSizeBytes, resultCount: outcome.resultCount }
        : { status: 'failed' as const, failureType: outcome.failureType, failureMessage: outcome.failureMessage };
    return this.changed(
      this.jobs
        .createQueryBuilder()
        .update()
        .set({ ...ended, finishedAt: () => 'now()', leaseOwner: null, leaseExpiresAt: null })
        .where("id = :id AND lease_owner = :owner AND status = 'processing'", { id, owner }),
    );
  }

  /** Gives the job up without ending it (it will be retried); false when the run no longer held it. */
  async releaseLease(id: string, owner: string): Promise<boolean> {
    return this.changed(
      this.jobs.createQueryBuilder().update().set({ leaseOwner: null, leaseExpiresAt: null }).where('id = :id AND lease_owner = :owner', { id, owner }),
    );
  }

  /** Ends an unfinished job no run holds (the reconciler's verdict). */
  async failUnheld(id: string, failureType: FailureType, failureMessage: string): Promise<boolean> {
    return this.changed(
      this.jobs
        .createQueryBuilder()
        .update()
        .set({ status: 'failed', failureType, failureMessage, finishedAt: () => 'now()', leaseOwner: null, leaseExpiresAt: null })
        .where("id = :id AND status IN ('queued', 'processing') AND (lease_owner IS NULL OR lease_expires_at < now())", { id }),
    );
  }

  /** processing → queued for a job whose run vanished (no live lease): it is dispatched again. */
  async requeue(id: string): Promise<boolean> {
    return this.changed(
      this.jobs
        .createQueryBuilder()
        .update()
        .set({ status: 'queued', leaseOwner: null, leaseExpiresAt: null })
        .where("id = :id AND status = 'processing' AND (lease_owner IS NULL OR lease_expires_at < now())", { id }),
    );
  }

  /** Marks a job's `updated_at` now, so the reconciler looks at it again only after its grace. */
  async touch(id: string): Promise<void> {
    await this.jobs.createQueryBuilder().update().set({ updatedAt: () => 'now()' }).where('id = :id', { id }).execute();
  }

  /** Unfinished jobs in `status` last changed more than `graceSeconds` ago, oldest first. */
  findStale(status: ConversionJobStatus, graceSeconds: number, limit: number): Promise<ConversionJob[]> {
    return this.jobs
      .createQueryBuilder('job')
      .where('job.status = :status', { status })
      .andWhere('job.updated_at < now() - make_interval(secs => :graceSeconds)', { graceSeconds })
      .andWhere('(job.lease_owner IS NULL OR job.lease_expires_at < now())')
      .orderBy('job.updated_at', 'ASC')
      .take(limit)
      .getMany();
  }

  /** Unfinished jobs created more than `minutes` ago. */
  findPastDeadline(minutes: number, limit: number): Promise<ConversionJob[]> {
    return this.jobs
      .createQueryBuilder('job')
      .where("job.status IN ('queued', 'processing')")
      .andWhere('job.created_at < now() - make_interval(mins => :minutes)', { minutes })
      .orderBy('job.created_at', 'ASC')
      .take(limit)
      .getMany();
  }

  /** Result purchases that started more than `graceSeconds` ago and never ended. */
  findStuckPurchases(graceSeconds: number, limit: number): Promise<ConversionJob[]> {
    return this.jobs
      .createQueryBuilder('job')
      .where("job.result_purchase = 'buying'")
      .andWhere('job.updated_at < now() - make_interval(secs => :graceSeconds)', { graceSeconds })
      .take(limit)
      .getMany();
  }

  /** Claims the result purchase of a done job; false when another purchase is settling or done. */
  async claimPurchase(id: string): Promise<boolean> {
    return this.changed(this.jobs.createQueryBuilder().update().set({ resultPurchase: 'buying' }).where("id = :id AND status = 'done' AND result_purchase IS NULL", { id }));
  }

  /** A purchase whose settlement the ledger shows, though the request that made it never recorded it. */
  async completePurchase(id: string): Promise<boolean> {
    return this.changed(this.jobs.createQueryBuilder().update().set({ resultPurchase: 'paid' }).where("id = :id AND result_purchase = 'buying'", { id }));
  }

  async releasePurchase(id: string): Promise<boolean> {
    return this.changed(this.jobs.createQueryBuilder().update().set({ resultPurchase: null }).where("id = :id AND result_purchase = 'buying'", { id }));
  }

  /** The result is paid for; the download URL given out with it. */
  async markPurchased(id: string, download: { token: string; expiresAt: Date }): Promise<void> {
    await this.jobs.update({ id }, { resultPurchase: 'paid', downloadToken: download.token, downloadExpiresAt: download.expiresAt });
  }

  /** Removes a job never paid for: no tombstone, it never existed for the client. */
  async delete(id: string): Promise<void> {
    await this.jobs.delete({ id });
  }


  /** Removes a job and leaves a tombstone, in one transaction. */
  async remove(id: string, reason: JobTombstone['reason']): Promise<void> {
    await this.jobs.manager.transaction(async (manager) => {
      await manager.delete(ConversionJob, { id });
      await manager.upsert(JobTombstone, { jobId: id, reason }, ['jobId']);
    });
  }

  findTombstone(id: string): Promise<JobTombstone | null> {
    return this.tombstones.findOneBy({ jobId: id });
  }

  findExpired(now: Date, limit: number): Promise<ConversionJob[]> {
    return this.jobs.find({ where: { expiresAt: LessThanOrEqual(now) }, take: limit, order: { expiresAt: 'ASC' } });
  }

  async forgetTombstonesBefore(cutoff: Date): Promise<number> {
    return (await this.tombstones.delete({ removedAt: LessThan(cutoff) })).affected ?? 0;
  }

  private async changed(query: { execute(): Promise<{ affected?: number | null }> }): Promise<boolean> {
    return ((await query.execute()).affected ?? 0) > 0;
  }
}
