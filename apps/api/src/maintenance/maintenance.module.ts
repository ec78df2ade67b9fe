import { Module } from '@nestjs/common';
import { ConversionJobsModule } from '../conversion-jobs/conversion-jobs.module.js';
import { KeyApiRecordsModule } from '../key-api/key-api-records.module.js';
import { QueueModule } from '../queue/queue.module.js';
import { MaintenanceScheduleService } from './maintenance-schedule.service.js';
import { PurgeExpiredJob } from './purge-expired.job.js';

/** Retention: the purge job's handler and its schedule (worker role). */
@Module({
  imports: [QueueModule, ConversionJobsModule, KeyApiRecordsModule],
  providers: [PurgeExpiredJob, MaintenanceScheduleService],
})
export class MaintenanceModule {}
