import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConversionJob } from './conversion-job.entity.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import { JobRemovalService } from './job-removal.service.js';
import { JobTombstone } from './job-tombstone.entity.js';

/** The job records and their removal, shared by the HTTP role and the workers. */
@Module({
  imports: [TypeOrmModule.forFeature([ConversionJob, JobTombstone])],
  providers: [ConversionJobsRepository, JobRemovalService],
  exports: [ConversionJobsRepository, JobRemovalService],
})
export class JobRecordsModule {}
