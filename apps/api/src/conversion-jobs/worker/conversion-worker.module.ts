import { type DynamicModule, Logger, Module, type ModuleMetadata } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/app-config.token.js';
import { LiveConversionsModule } from '../../live-conversions/live-conversions.module.js';
import { EngineHost } from './engine-host.service.js';
import { QueueModule } from '../../queue/queue.module.js';
import { ConvertFileJob } from './convert-file.job.js';
import { JobLeases } from './job-leases.repository.js';
import { JobReconciler } from './job-reconciler.js';
import { ConversionJobsModule } from '../conversion-jobs.module.js';
import { ScratchSpace } from './scratch-space.js';

/** The engines, the conversion job handler and the reconciler (worker role), with the JobSales port the reconciler asks. */
@Module({
  imports: [ConversionJobsModule, LiveConversionsModule, QueueModule],
  providers: [
    JobLeases,
    ConvertFileJob,
    EngineHost,
    JobReconciler,
    {
      provide: ScratchSpace,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const scratch = new ScratchSpace(config.scratchDir);
        const swept = await scratch.sweepOrphans();
        if (swept > 0) new Logger('ScratchSpace').log(`removed ${swept} scratch director${swept === 1 ? 'y' : 'ies'} of workers that no longer run`);
        return scratch;
      },
    },
  ],
})
export class ConversionWorkerModule {
  /** With the module that provides JOB_SALES (the x402 API's, chosen by the composition root). */
  static selling(jobSales: NonNullable<ModuleMetadata['imports']>[number]): DynamicModule {
    return { module: ConversionWorkerModule, imports: [jobSales] };
  }
}
