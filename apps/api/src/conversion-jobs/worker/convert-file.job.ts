import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConversionError, type ConversionPlan, writeStoredZip } from '@fileshift/converters';
import { type JoinMemberFile, runJoin, runPlan, type StepTiming } from '@fileshift/converters/worker';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/app-config.token.js';
import { EngineHost } from './engine-host.service.js';
import { ServiceMetrics } from '../../metrics/service-metrics.js';
import { JobName, type JobPayloads } from '../../queue/job-contract.js';
import type { JobContext } from '../../queue/job-handler-registry.js';
import { OnJob } from '../../queue/on-job.decorator.js';
import { RetryLaterError } from '../../queue/retry-later.error.js';
import { FILE_STORAGE, type FileStorage, StoredFileMissingError } from '../../storage/file-storage.js';
import type { ConversionJob, FileDigest, JobJoinPlan, ResultManifest } from '../conversion-job.entity.js';
import { ConversionJobsRepository } from '../conversion-jobs.repository.js';
import { engineClassOf } from '../conversion-queue.js';
import { JobEndSignals } from '../job-end-signals.js';
import { JobLease } from './job-lease.js';
import { JobLeases, type RunOutcome } from './job-leases.repository.js';
import { MAX_RUNS } from '../job-runs.js';
import { jobBundleKey, jobInputKey, jobMemberKey, jobOutputKey } from '../job-storage-keys.js';
import { pageFileName, resultName } from '../result-files.js';
import { digestOf, readDigesting } from './file-digest.js';
import { type ScratchDirectory, ScratchSpace } from './scratch-space.js';
import { WebhookDispatcher } from '../../webhooks/webhook-dispatcher.js';

/** A job whose engines no engine here runs waits this long for a worker that has them. */
const NO_ENGINE_HERE_DELAY_MS = 5000;

/**
 * Runs one conversion: queued → processing → done | failed, with the spec's failure types. The worker
 * fetches the input into the job's own scratch directory, runs the job's plan there (its recorded plan,
 * then this worker's fallbacks), puts the output file(s) into storage, and removes the scratch directory
 * in every outcome.
 */
@Injectable()
export class ConvertFileJob {
  private readonly logger = new Logger(ConvertFileJob.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ConversionJobsRepository,
    private readonly leases: JobLeases,
    private readonly engines: EngineHost,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    private readonly scratch: ScratchSpace,
    private readonly ends: JobEndSignals,
    private readonly metrics: ServiceMetrics,
    private readonly webhooks: WebhookDispatcher,
  ) {}

  @OnJob(JobName.ConvertDocument, JobName.ConvertMedia, JobName.ConvertImage)
  async handle({ jobId }: JobPayloads[JobName.ConvertDocument], context?: JobContext): Promise<{ status: string }> {
    // The queue's consumers start with the module, before the engines are probed: a job that comes first waits for them.
    await this.engines.probed();
    const acquired = await JobLease.acquire(this.leases, jobId, this.config.jobCycle.leaseSeconds);
    if (acquired.kind === 'busy') throw new RetryLaterError(acquired.retryInMs, 'another run holds the job');
    if (acquired.kind !== 'held') return { status: acquired.kind };
    const { lease, job, runs } = acquired;
    // The first run only: a retry's BullMQ job keeps its first enqueue time, so its wait would include the earlier runs.
    if (context && runs === 1) this.metrics.queueWaited(engineClassOf(job), (Date.now() - context.enqueuedAt) / 1000);
    if (runs > MAX_RUNS) return this.end(job, lease, { status: 'failed', failureType: 'provider_error', failureMessage: `The conversion was interrupted ${MAX_RUNS} times; it was given up.` });
    const plans = this.plansFor(job);
    if (plans.length === 0) {
      // Another worker may have the engine: handing the job on is not an interruption.
      await lease.release({ unrun: true });
      throw new RetryLaterError(NO_ENGINE_HERE_DELAY_MS, `no engine for ${job.detectedInputFormat} → ${job.targetFormat} runs on this worker`);
    }

    const written: string[] = [];
    let outcome: RunOutcome;
    try {
      outcome = await this.convertInScratch(job, lease, plans, written);
    } catch (error) {
      if (lease.lost) return await this.giveUp(job, lease.lost, written);
      const failure = toFailure(error);
      if (failure.retryable && runs < MAX_RUNS) {
        await lease.release();
        await this.deleteAll(written);
        throw failure;
      }
      this.logger.warn(`job ${jobId} failed (${failure.failureType}): ${failure.diagnostics ?? failure.message}`);
      await this.deleteAll(written);
      outcome = { status: 'failed', failureType: failure.failureType, failureMessage: failure.message };
    } finally {
      await lease.stop();
    }
    if (await lease.finish(outcome)) {
      await this.ended(job, outcome);
      return { status: outcome.status };
    }
    return this.giveUp(job, lease.lost ?? ((await this.jobs.find(jobId)) ? 'taken' : 'removed'), written);
  }

  /**
   * The job's plans, planned when it was asked for, that this worker runs every engine of: its plan, then its
   * fallbacks. A job of several files runs here when the joining engine does and some plan of each member.
   */
  private plansFor(job: ConversionJob): ConversionPlan[] {
    const runsHere = (plan: ConversionPlan) => plan.steps.every((step) => this.engines.runtimesById().has(step.engine));
    if (job.joinPlan) return job.plan && runsHere(job.plan) && job.joinPlan.members.every((member) => member.plans.length === 0 || member.plans.some(runsHere)) ? [job.plan] : [];
    return [...(job.plan ? [job.plan] : []), ...job.fallbackPlans].filter(runsHere);
  }

  /** The conversion in a scratch directory of its own, removed in every outcome. */
  private async convertInScratch(job: ConversionJob, lease: JobLease, plans: ConversionPlan[], written: string[]): Promise<RunOutcome> {
    const scratch = await this.scratch.open(job.id);
    try {
      if (job.joinPlan) return await this.joinInScratch(job, job.joinPlan, lease, plans[0]!, scratch, written);
      const inputPath = scratch.file('input');
      await this.storage.copyToFile(jobInputKey(job.id), inputPath, lease.signal);
      const { plan, files, notes } = await this.engines.converting(() =>
        runPlan({ plans, inputPath, ...this.runContext(job, lease, scratch) }, this.engines.runtimesById()),
      );
      lease.signal.throwIfAborted();
      return await this.putResults(job, plan, { files, notes }, scratch, written);
    } finally {
      await scratch.remove();
    }
  }

  /** A job of several files: each member fetched into the scratch directory, converted as its plans say, then joined. */
  private async joinInScratch(job: ConversionJob, joinPlan: JobJoinPlan, lease: JobLease, plan: ConversionPlan, scratch: ScratchDirectory, written: string[]): Promise<RunOutcome> {
    const members: JoinMemberFile[] = [];
    for (const [index, member] of joinPlan.members.entries()) {
      const path = scratch.file(`member-${index + 1}.input`);
      await this.storage.copyToFile(jobMemberKey(job.id, index + 1), path, lease.signal);
      members.push({ path, format: member.format ?? undefined, name: member.filename });
    }
    const joined = await this.engines.converting(() =>
      runJoin(
        {
          plan: { engine: joinPlan.engine, into: job.targetFormat, memberPlans: joinPlan.members.map((member) => member.plans), engineClass: plan.engineClass },
          members,
          ...this.runContext(job, lease, scratch),
        },
        this.engines.runtimesById(),
      ),
    );
    lease.signal.throwIfAborted();
    const version = (engine: string) => this.engines.versionOf(engine);
    const memberSteps = joined.memberSteps.map((steps) => ({ steps: (steps ?? []).map((step) => ({ ...step, version: version(step.engine) })) }));
    return this.putResults(job, plan, { files: joined.files, notes: joined.notes, members: memberSteps }, scratch, written);
  }

  /** What a plan or a join runs with: the job's scratch directory, options, cancellation, progress and step metrics. */
  private runContext(job: ConversionJob, lease: JobLease, scratch: ScratchDirectory) {
    return {
      workDir: scratch.path,
      options: job.options,
      signal: lease.signal,
      onProgress: (percent: number) => lease.reportProgress(percent),
      onStepEnd: (step: StepTiming) => this.metrics.conversionStepRan(step),
    };
  }

  /**
   * One output file is the result; several (one per page) are stored as the job's delivery says: one ZIP, or each
   * file under its own key. Each stored file is hashed on its way to storage, for the job's delivery record.
   */
  private async putResults(job: ConversionJob, plan: ConversionPlan, ran: { files: string[]; notes: string[]; members?: ResultManifest['members'] }, scratch: ScratchDirectory, written: string[]): Promise<RunOutcome> {
    const { files } = ran;
    const steps = plan.steps.map(({ engine, from, to }) => ({ engine, version: this.engines.versionOf(engine), from, to }));
    const put = async (key: string, path: string): Promise<FileDigest> => {
      written.push(key);
      const { stream, digest } = readDigesting(path);
      await this.storage.put(key, stream);
      return digest();
    };
    const done = (stored: FileDigest[], bundled?: ResultManifest['bundled']): RunOutcome => ({
      status: 'done',
      resultSizeBytes: stored.reduce((total, file) => total + file.sizeBytes, 0),
      resultCount: files.length,
      manifest: { steps, files: stored, ...(bundled ? { bundled } : {}), ...(ran.members ? { members: ran.members } : {}), ...(ran.notes.length > 0 ? { notes: ran.notes } : {}) },
    });
    if (files.length === 1) return done([await put(jobOutputKey(job.id, job.targetFormat), files[0]!)]);
    if (job.delivery === 'bundle') {
      const bundle = scratch.file('result.zip');
      const entries = files.map((file, index) => ({ path: file, name: pageFileName(resultName(job), index + 1) }));
      await writeStoredZip(entries, bundle);
      const bundled = await Promise.all(entries.map(async ({ path, name }) => ({ filename: name, ...(await digestOf(path)) })));
      return done([await put(jobBundleKey(job.id), bundle)], bundled);
    }
    const stored: FileDigest[] = [];
    for (const [index, file] of files.entries()) stored.push(await put(jobOutputKey(job.id, job.targetFormat, index + 1), file));
    return done(stored);
  }

  private async end(job: ConversionJob, lease: JobLease, outcome: RunOutcome): Promise<{ status: string }> {
    if (await lease.finish(outcome)) await this.ended(job, outcome);
    return { status: outcome.status };
  }

  /** The job ended by this run: counted, announced to waiting requests, and its webhook's event queued. */
  private async ended(job: ConversionJob, outcome: RunOutcome): Promise<void> {
    this.metrics.jobEnded(outcome.status, outcome.status === 'failed' ? outcome.failureType : undefined);
    await this.ends.announce(job.id);
    await this.webhooks.jobEnded(job);
  }

  /**
   * The run lost its job. Removed (DELETE, expiry): whatever this run put into storage goes too. Taken by
   * another run: that run owns the result. Lease not renewable (database unreachable): try again later.
   */
  private async giveUp(job: ConversionJob, loss: NonNullable<JobLease['lost']>, written: string[]): Promise<{ status: string }> {
    this.logger.log(`job ${job.id}: run stopped, lease ${loss}`);
    if (loss === 'removed') await this.deleteAll(written);
    if (loss === 'unrenewable') throw new RetryLaterError(this.config.jobCycle.leaseSeconds * 1000, 'the lease could not be renewed');
    return { status: loss };
  }

  private async deleteAll(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.storage.delete(key)));
  }
}

/** What a failed run means: the engines' own failures as they are; a vanished input is final; anything else (storage, database) is retried. */
function toFailure(error: unknown): ConversionError {
  if (error instanceof ConversionError) return error;
  if (error instanceof StoredFileMissingError) return new ConversionError('provider_error', 'The uploaded file is no longer available.', false, error.message);
  return new ConversionError('unknown', 'The conversion failed unexpectedly.', true, String(error));
}
