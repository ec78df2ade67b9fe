import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { ConversionJobsModule } from '../conversion-jobs/conversion-jobs.module.js';
import { QueueModule } from '../queue/queue.module.js';
import { MaintenanceScheduleService } from './maintenance-schedule.service.js';
import { PurgeExpiredJob } from './purge-expired.job.js';

/** Retention: the purge job's handler and its schedule (worker role). */
@Module({
  imports: [QueueModule, ConversionJobsModule],
  providers: [PurgeExpiredJob, MaintenanceScheduleService],
})
export class MaintenanceModule {
  /** With the module that provides EXPIRING_UPLOADS (the key API's, chosen by the composition root). */
  static purging(expiringUploads: NonNullable<ModuleMetadata['imports']>[number]): DynamicModule {
    return { module: MaintenanceModule, imports: [expiringUploads] };
  }
}
