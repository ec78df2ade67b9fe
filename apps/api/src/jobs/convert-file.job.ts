import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConversionError } from '@fileshift/converters';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { CONVERSION_ENGINES, type ConversionEngines } from '../conversion/conversion-graph.token.js';
import { JobName, type JobPayloads } from '../queue/job-contract.js';
import { OnJob } from '../queue/on-job.decorator.js';
import { RetryLaterError } from '../queue/retry-later.error.js';
import { FILE_STORAGE, type FileStorage, StoredFileMissingError } from '../storage/file-storage.js';
import type { ConversionJob } from './conversion-job.entity.js';
import { ConversionJobsRepository, type RunOutcome } from './conversion-jobs.repository.js';
import { JobLease } from './job-lease.js';
import { jobInputKey, jobOutputKey } from './job-storage-keys.js';
import { MAX_RUNS } from './job-runs.js';
import { ScratchSpace } from './scratch-space.js';

/**
 * Runs one conversion: queued → processing → done | failed, with the spec's failure types. The worker
 * fetches the input into the job's own scratch directory, the engine converts there, the output is put
 * into storage, and the scratch directory goes in every outcome.
 */
@Injectable()
export class ConvertFileJob {
  private readonly logger = new Logger(ConvertFileJob.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ConversionJobsRepository,
    @Inject(CONVERSION_ENGINES) private readonly engines: ConversionEngines,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    private readonly scratch: ScratchSpace,
  ) {}

  @OnJob(JobName.ConvertFile)
  async handle({ jobId }: JobPayloads[JobName.ConvertFile]): Promise<{ status: string }> {
    const acquired = await JobLease.acquire(this.jobs, jobId, this.config.jobCycle.leaseSeconds);
    if (acquired.kind === 'busy') throw new RetryLaterError(acquired.retryInMs, 'another run holds the job');
    if (acquired.kind !== 'held') return { status: acquired.kind };
    const { lease, job } = acquired;
    if (job.attempts > MAX_RUNS) {
      await lease.finish({ status: 'failed', failureType: 'provider_error', failureMessage: `The conversion was interrupted ${MAX_RUNS} times; it was given up.` });
      return { status: 'failed' };
    }

    let outcome: RunOutcome;
    try {
      outcome = await this.convertInScratch(job, lease);
    } catch (error) {
      if (lease.lost) return await this.giveUp(job, lease.lost);
      const failure = toFailure(error);
      if (failure.retryable && job.attempts < MAX_RUNS) {
        await lease.release();
        throw failure;
      }
      this.logger.warn(`job ${jobId} failed (${failure.failureType}): ${failure.diagnostics ?? failure.message}`);
      outcome = { status: 'failed', failureType: failure.failureType, failureMessage: failure.message };
    } finally {
      await lease.stop();
    }
    if (await lease.finish(outcome)) return { status: outcome.status };
    return this.giveUp(job, lease.lost ?? ((await this.jobs.find(jobId)) ? 'taken' : 'removed'));
  }

  /** The conversion in a scratch directory of its own, removed in every outcome. */
  private async convertInScratch(job: ConversionJob, lease: JobLease): Promise<RunOutcome> {
    const scratch = await this.scratch.open(job.id);
    try {
      return await this.convert(job, lease, scratch.file('input'), scratch.file(`output.${job.targetFormat}`), scratch.path);
    } finally {
      await scratch.remove();
    }
  }

  private async convert(job: ConversionJob, lease: JobLease, inputPath: string, outputPath: string, workDir: string): Promise<RunOutcome> {
    await pipeline(await this.storage.get(jobInputKey(job.id)), createWriteStream(inputPath), { signal: lease.signal });
    await this.engines.convert({
      inputPath,
      outputPath,
      from: job.detectedInputFormat,
      to: job.targetFormat,
      workDir,
      signal: lease.signal,
      onProgress: (percent) => lease.reportProgress(percent),
    });
    lease.signal.throwIfAborted();
    const resultSizeBytes = (await stat(outputPath)).size;
    await this.storage.put(jobOutputKey(job.id, job.targetFormat), createReadStream(outputPath));
    return { status: 'done', resultSizeBytes };
  }

  /**
   * The run lost its job. Removed (DELETE, expiry): whatever this run put into storage goes too. Taken by
   * another run: that run owns the result. Lease not renewable (database unreachable): try again later.
   */
  private async giveUp(job: ConversionJob, loss: NonNullable<JobLease['lost']>): Promise<{ status: string }> {
    this.logger.log(`job ${job.id}: run stopped, lease ${loss}`);
    if (loss === 'removed') await this.storage.delete(jobOutputKey(job.id, job.targetFormat));
    if (loss === 'unrenewable') throw new RetryLaterError(this.config.jobCycle.leaseSeconds * 1000, 'the lease could not be renewed');
    return { status: loss };
  }
}

/** What a failed run means: the engines' own failures as they are; a vanished input is final; anything else (storage, database) is retried. */
function toFailure(error: unknown): ConversionError {
  if (error instanceof ConversionError) return error;
  if (error instanceof StoredFileMissingError) return new ConversionError('provider_error', 'The uploaded file is no longer available.', false, error.message);
  return new ConversionError('unknown', 'The conversion failed unexpectedly.', true, String(error));
}
