import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DetectionModule } from '../detection/detection.module.js';
import { QueueModule } from '../queue/queue.module.js';
import { ConversionJob } from './conversion-job.entity.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import { ConversionJobs } from './conversion-jobs.service.js';
import { JobDispatcher } from './job-dispatcher.js';
import { JobEndSignals } from './job-end-signals.js';
import { JobRemovalService } from './job-removal.service.js';
import { JobTombstone } from './job-tombstone.entity.js';
import { ResultStore } from './result-store.js';
import { WebhookRecordsModule } from '../webhooks/webhook-records.module.js';

// The port the core asks the API that sells its jobs to provide: public with the module, as its other half.
export { JOB_SALES, type JobSales, type UnchargedJobRepair } from './job-sales.port.js';

/**
 * The conversion-jobs core: `ConversionJobs` for the APIs and maintenance; its records, dispatch and end signals for
 * its own worker (`worker/`). Shared by the HTTP role and the workers.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ConversionJob, JobTombstone]), QueueModule, DetectionModule, WebhookRecordsModule],
  providers: [ConversionJobs, ConversionJobsRepository, JobRemovalService, JobDispatcher, JobEndSignals, ResultStore],
  exports: [ConversionJobs, ConversionJobsRepository, JobRemovalService, JobDispatcher, JobEndSignals, WebhookRecordsModule],
})
export class ConversionJobsModule {}
