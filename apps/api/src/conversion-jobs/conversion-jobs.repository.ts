import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, LessThanOrEqual, type Repository } from 'typeorm';
import { ConversionJob, type ConversionJobStatus } from './conversion-job.entity.js';
import { JobTombstone } from './job-tombstone.entity.js';
import { WebhookDelivery } from '../webhooks/webhook-delivery.entity.js';

/** What is decided about a new job when it is asked for; everything else starts the same for every job. */
export type NewJob = Pick<
  ConversionJob,
  | 'id'
  | 'origin'
  | 'originalFilename'
  | 'fileCreatedAt'
  | 'inputSizeBytes'
  | 'inputSha256'
  | 'detectedInputFormat'
  | 'targetFormat'
  | 'options'
  | 'joinPlan'
  | 'delivery'
  | 'dedupeKey'
  | 'requestFingerprint'
  | 'expiresAt'
> & {
  /** `awaiting_payment` until its charge settles, `queued` when nothing is owed. */
  status: Extract<ConversionJobStatus, 'awaiting_payment' | 'queued'>;
  /** The plans, cheapest first: the first is the job's plan, the rest its fallbacks. */
  plans: ConversionJob['fallbackPlans'];
  /** Where the job's end is announced, and the address the request reached the service at. */
  webhook?: { url: string; serviceUrl: string };
};

/**
 * The conversion jobs in PostgreSQL, and the tombstones of removed ones. Changes of state are conditional on the
 * state they come from (the affected row count decides); those that depend on a run's lease are the worker's
 * (`worker/job-leases.repository.ts`).
 */
@Injectable()
export class ConversionJobsRepository {
  constructor(
    @InjectRepository(ConversionJob) private readonly jobs: Repository<ConversionJob>,
    @InjectRepository(JobTombstone) private readonly tombstones: Repository<JobTombstone>,
  ) {}

  /** The one place a job record is written; its webhook with it, in one transaction. */
  create({ plans, webhook, ...job }: NewJob): Promise<ConversionJob> {
    const [plan, ...fallbackPlans] = plans;
    const record = this.jobs.create({
      ...job,
      plan: plan!,
      fallbackPlans,
      engineClass: plan!.engineClass,
      progressPercent: 0,
      resultSizeBytes: null,
      resultCount: null,
      resultManifest: null,
      failureType: null,
      failureMessage: null,
      finishedAt: null,
      hasWebhook: webhook !== undefined,
    });
    if (!webhook) return this.jobs.save(record);
    return this.jobs.manager.transaction(async (manager) => {
      const saved = await manager.save(record);
      await manager.insert(WebhookDelivery, { jobId: saved.id, url: webhook.url, serviceUrl: webhook.serviceUrl });
      return saved;
    });
  }

  find(id: string): Promise<ConversionJob | null> {
    return this.jobs.findOneBy({ id });
  }

  /** Of `ids`, those whose job is still to end (queued, processing…): one query for every waiting request. */
  async unended(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.jobs.createQueryBuilder('job').select('job.id', 'id').where("job.id = ANY(:ids) AND job.status NOT IN ('done', 'failed')", { ids: [...ids] }).getRawMany<{ id: string }>();
    return new Set(rows.map((row) => row.id));
  }

  findByDedupeKey(origin: ConversionJob['origin'], dedupeKey: string): Promise<ConversionJob | null> {
    return this.jobs.findOneBy({ origin, dedupeKey });
  }

  /** awaiting_payment → queued, once its charge settled. */
  async markCharged(id: string): Promise<boolean> {
    return this.changed(this.jobs.createQueryBuilder().update().set({ status: 'queued' }).where("id = :id AND status = 'awaiting_payment'", { id }));
  }

  /** Marks a job's `updated_at` now, so the reconciler looks at it again only after its grace. */
  async touch(id: string): Promise<void> {
    await this.jobs.createQueryBuilder().update().set({ updatedAt: () => 'now()' }).where('id = :id', { id }).execute();
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

  /** Removes a job never charged for: no tombstone, it never existed for the client. */
  async delete(id: string): Promise<void> {
    await this.jobs.delete({ id });
  }

  /** Removes a job (its lease, purchase and download records with it) and leaves a tombstone, in one transaction. */
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
