import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConversionError } from '@fileshift/converters';
import { CONVERSION_ENGINES, type ConversionEngines } from '../conversion/conversion-graph.token.js';
import { JobName, type JobPayloads } from '../queue/job-contract.js';
import type { JobContext } from '../queue/job-handler-registry.js';
import { OnJob } from '../queue/on-job.decorator.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import { jobInputKey, jobOutputKey } from './job-storage-keys.js';

const MAX_ATTEMPTS = 3;

/** Runs one conversion: queued → processing → done | failed, with the spec's failure types. */
@Injectable()
export class ConvertFileJob {
  private readonly logger = new Logger(ConvertFileJob.name);

  constructor(
    private readonly jobs: ConversionJobsRepository,
    @Inject(CONVERSION_ENGINES) private readonly engines: ConversionEngines,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  @OnJob(JobName.ConvertFile)
  async handle({ jobId }: JobPayloads[JobName.ConvertFile], context: JobContext): Promise<{ status: string }> {
    const job = await this.jobs.find(jobId);
    if (!job || job.status === 'done' || job.status === 'failed') return { status: job?.status ?? 'gone' };
    // A retry after a crash finds the job already processing: it simply runs again.
    await this.jobs.transition(jobId, ['queued', 'processing'], 'processing');
    await this.jobs.update(jobId, { progressPercent: 5 });
    const outputKey = jobOutputKey(jobId, job.targetFormat);
    try {
      await this.engines.convert(
        { inputPath: await this.storage.localPath(jobInputKey(jobId)), outputPath: await this.storage.localPath(outputKey), from: job.detectedInputFormat, to: job.targetFormat },
        (percent) => void this.jobs.update(jobId, { progressPercent: Math.max(5, Math.min(99, Math.round(percent))) }).then(() => context.reportProgress(percent)),
      );
      const size = await this.storage.size(outputKey);
      await this.jobs.update(jobId, { status: 'done', progressPercent: 100, resultSizeBytes: size ?? 0, finishedAt: new Date() });
      return { status: 'done' };
    } catch (error) {
      await this.storage.delete(outputKey);
      const conversion = error instanceof ConversionError ? error : new ConversionError('unknown', 'The conversion failed unexpectedly.', true, String(error));
      if (conversion.retryable && context.attempt < MAX_ATTEMPTS) throw conversion;
      this.logger.warn(`job ${jobId} failed (${conversion.failureType}): ${conversion.diagnostics ?? conversion.message}`);
      await this.jobs.update(jobId, { status: 'failed', failureType: conversion.failureType, failureMessage: conversion.message, finishedAt: new Date() });
      return { status: 'failed' };
    }
  }
}
