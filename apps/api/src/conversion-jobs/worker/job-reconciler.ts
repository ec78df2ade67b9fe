import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/app-config.token.js';
import { ServiceMetrics } from '../../metrics/service-metrics.js';
import { JobService } from '../../queue/job.service.js';
import { within } from '../../queue/within.js';
import type { ConversionJob } from '../conversion-job.entity.js';
import { ConversionJobsRepository } from '../conversion-jobs.repository.js';
import { conversionJobOf } from '../conversion-queue.js';
import { JobDispatcher } from '../job-dispatcher.js';
import { JOB_SALES, type JobSales } from '../job-sales.port.js';
import { JobRemovalService } from '../job-removal.service.js';
import { MAX_RUNS } from '../job-runs.js';
import { JobLeases } from './job-leases.repository.js';
import { type QueueState, repairOrphanedRun, repairQueued } from './reconcile-decisions.js';
import { JobName } from '../../queue/job-contract.js';
import { WebhookDeliveries } from '../../webhooks/webhook-deliveries.repository.js';
import { WebhookDispatcher } from '../../webhooks/webhook-dispatcher.js';

/** A job is looked at only this long after its last change: the API or a worker may be about to act on it. */
export const RECONCILE_GRACE_SECONDS = 10;
const BATCH = 100;
/** A Redis that does not answer within this makes the step wait for the next tick, not hang. */
const QUEUE_CALL_TIMEOUT_MS = 3000;

export interface ReconcileReport {
  promoted: number;
  discarded: number;
  enqueued: number;
  requeued: number;
  failed: number;
  timedOut: number;
  /** Events of ended jobs handed to the webhooks queue again (lost between the end and the queue, or by Redis). */
  webhooks: number;
}

/**
 * Brings every unfinished job to an end, whatever crashed around it, and has the API that sold jobs and results do the
 * same for its sales (JobSales). Every worker runs it on a timer (not on the queue: it must work exactly when Redis
 * lost its state); its actions are conditional and idempotent, so runs in several workers agree. See
 * docs/operations.md, "The job cycle", for the timings.
 */
@Injectable()
export class JobReconciler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(JobReconciler.name);
  private readonly reported = new Set<string>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ConversionJobsRepository,
    private readonly leases: JobLeases,
    private readonly queue: JobService,
    private readonly dispatcher: JobDispatcher,
    @Inject(JOB_SALES) private readonly sales: JobSales,
    private readonly removal: JobRemovalService,
    private readonly metrics: ServiceMetrics,
    private readonly webhookDeliveries: WebhookDeliveries,
    private readonly webhooks: WebhookDispatcher,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.jobCycle.reconcileIntervalSeconds * 1000).unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    if (this.running) this.logger.log('shutdown: waiting for the reconcile pass under way');
    await this.running;
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    const jobs = this.reconcile()
      .then((report) => {
        const acted = Object.entries(report).filter(([, count]) => count > 0);
        if (acted.length > 0) this.logger.log(`reconciled jobs: ${acted.map(([what, count]) => `${what} ${count}`).join(', ')}`);
      })
      .catch((error: unknown) => this.logger.warn(`reconciling jobs failed; next try in ${this.config.jobCycle.reconcileIntervalSeconds} s: ${(error as Error).message}`));
    // Side by side, as two timers ran them before; the sales' pass logs for itself (the catch only keeps a broken promise from escaping).
    const sales = this.sales.reconcileSoldResults().catch((error: unknown) => this.logger.warn(`reconciling sold results failed: ${(error as Error).message}`));
    this.running = Promise.all([jobs, sales]).finally(() => (this.running = undefined));
    await this.running;
  }

  /** One pass over every kind of unfinished job; each step on its own, so one failing dependency does not stop the others. */
  async reconcile(): Promise<ReconcileReport> {
    const report: ReconcileReport = { promoted: 0, discarded: 0, enqueued: 0, requeued: 0, failed: 0, timedOut: 0, webhooks: 0 };
    const steps = [
      () => this.unpaidJobs(report),
      () => this.queuedJobs(report),
      () => this.orphanedRuns(report),
      () => this.pastDeadline(report),
      () => this.unsentWebhooks(report),
    ];
    const problems: string[] = [];
    for (const step of steps) await step().catch((error: unknown) => problems.push((error as Error).message));
    if (problems.length > 0) this.logger.warn(`reconcile steps failed (they run again next tick): ${problems.join('; ')}`);
    return report;
  }

  /** Jobs whose charge was taken but never marked settled: the ledger decides, through the API that sold them. */
  private async unpaidJobs(report: ReconcileReport): Promise<void> {
    for (const { job } of await this.leases.findStale('awaiting_payment', RECONCILE_GRACE_SECONDS, BATCH)) {
      switch (await this.sales.repairUncharged(job.id, ageSeconds(job))) {
        case 'complete':
          if (await this.jobs.markCharged(job.id)) {
            report.promoted++;
            await this.dispatcher.dispatch(job);
          }
          break;
        case 'undo':
          await this.removal.discardUnpaid(job);
          report.discarded++;
          break;
        case 'report':
          this.reportOnce(job.id, `job ${job.id}: its fee was verified but the settlement was never recorded; check the chain for the payment of this job (the ledger row of ${this.sales.creationPaymentEntry})`);
          break;
        case 'leave':
      }
    }
  }

  /** Paid jobs BullMQ does not hold (Redis down at enqueue, flushed, restarted without persistence). */
  private async queuedJobs(report: ReconcileReport): Promise<void> {
    for (const { job } of await this.leases.findStale('queued', RECONCILE_GRACE_SECONDS, BATCH)) {
      const repair = repairQueued(await this.stateOf(job));
      if (repair === 'leave') continue;
      if (repair === 'replace') await this.bounded(this.queue.remove(conversionJobOf(job), job.id));
      if (await this.dispatcher.dispatch(job)) report.enqueued++;
      await this.jobs.touch(job.id);
    }
  }

  /** Jobs left in processing by a run that vanished (worker killed, BullMQ job failed for good or lost). */
  private async orphanedRuns(report: ReconcileReport): Promise<void> {
    for (const { job, runs } of await this.leases.findStale('processing', RECONCILE_GRACE_SECONDS, BATCH)) {
      switch (repairOrphanedRun(await this.stateOf(job), runs, MAX_RUNS)) {
        case 'requeue':
          if (await this.leases.requeue(job.id)) {
            report.requeued++;
            await this.bounded(this.queue.remove(conversionJobOf(job), job.id));
            await this.dispatcher.dispatch(job);
          }
          break;
        case 'fail':
          if (await this.leases.failUnheld(job.id, 'provider_error', `The conversion was interrupted ${runs} times; it was given up.`)) {
            report.failed++;
            this.metrics.jobEnded('failed', 'provider_error');
            await this.webhooks.jobEnded(job);
          }
          break;
        case 'leave':
      }
    }
  }

  /** The last bound: no job stays unfinished past the deadline. */
  private async pastDeadline(report: ReconcileReport): Promise<void> {
    const minutes = this.config.jobCycle.deadlineMinutes;
    for (const job of await this.jobs.findPastDeadline(minutes, BATCH)) {
      if (await this.leases.failUnheld(job.id, 'timeout', `The conversion did not finish within ${minutes} minutes.`)) {
        report.timedOut++;
        this.metrics.jobEnded('failed', 'timeout');
        await this.webhooks.jobEnded(job);
        await this.bounded(this.queue.remove(conversionJobOf(job), job.id));
      }
    }
  }

  /** Events of ended jobs whose delivery has not ended and that the webhooks queue does not hold: handed to it again. */
  private async unsentWebhooks(report: ReconcileReport): Promise<void> {
    for (const jobId of await this.webhookDeliveries.unsent(RECONCILE_GRACE_SECONDS, BATCH)) {
      const repair = repairQueued(await this.bounded(this.queue.stateOf(JobName.DeliverWebhook, jobId)));
      // Looked at now: the next pass looks at the others first.
      await this.webhookDeliveries.touch(jobId);
      if (repair === 'leave') continue;
      if (repair === 'replace') await this.bounded(this.queue.remove(JobName.DeliverWebhook, jobId));
      await this.webhooks.dispatch(jobId);
      report.webhooks++;
    }
  }

  private stateOf(job: ConversionJob): Promise<QueueState> {
    return this.bounded(this.queue.stateOf(conversionJobOf(job), job.id));
  }

  private bounded<T>(call: Promise<T>): Promise<T> {
    return within(call, QUEUE_CALL_TIMEOUT_MS, 'Redis');
  }

  private reportOnce(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.logger.error(message);
  }
}

function ageSeconds(job: ConversionJob): number {
  return (Date.now() - job.updatedAt.getTime()) / 1000;
}
