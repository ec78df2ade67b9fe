import { type DynamicModule, Logger, Module, type ModuleMetadata } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/app-config.token.js';
import { LiveConversionsModule } from '../../live-conversions/live-conversions.module.js';
import { EngineHost } from './engine-host.service.js';
import { QueueModule } from '../../queue/queue.module.js';
import { ConvertFileJob } from './convert-file.job.js';
import { DeliverWebhookJob } from './deliver-webhook.job.js';
import { JobLeases } from './job-leases.repository.js';
import { JobReconciler } from './job-reconciler.js';
import { ConversionJobsModule } from '../conversion-jobs.module.js';
import { ScratchSpace } from './scratch-space.js';

type ModuleImport = NonNullable<ModuleMetadata['imports']>[number];

/**
 * The engines, the conversion job handler, the webhook delivery handler and the reconciler (worker role), with the
 * JobSales port the reconciler asks and the WebhookSigner port the deliveries sign with.
 */
@Module({
  imports: [ConversionJobsModule, LiveConversionsModule, QueueModule],
  providers: [
    JobLeases,
    ConvertFileJob,
    DeliverWebhookJob,
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
  /** With the modules that provide JOB_SALES (the x402 API's) and WEBHOOK_SIGNER (the service's key), chosen by the composition root. */
  static selling(jobSales: ModuleImport, webhookSigner: ModuleImport): DynamicModule {
    return { module: ConversionWorkerModule, imports: [jobSales, webhookSigner] };
  }
}
