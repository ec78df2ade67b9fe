import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QueueModule } from '../queue/queue.module.js';
import { ConversionJob } from './conversion-job.entity.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import { JobDispatcher } from './job-dispatcher.js';
import { JobEndSignals } from './job-end-signals.js';
import { JobRemovalService } from './job-removal.service.js';
import { JobTombstone } from './job-tombstone.entity.js';
import { ResultFiles } from './result-files.service.js';

/** The job records, their removal and their dispatch to the queue, shared by the HTTP role and the workers. */
@Module({
  imports: [TypeOrmModule.forFeature([ConversionJob, JobTombstone]), QueueModule],
  providers: [ConversionJobsRepository, JobRemovalService, JobDispatcher, JobEndSignals, ResultFiles],
  exports: [ConversionJobsRepository, JobRemovalService, JobDispatcher, JobEndSignals, ResultFiles],
})
export class ConversionJobsModule {}
