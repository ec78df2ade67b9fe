import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { AppConfig } from './config/app-config.js';
import { ConversionWorkerModule } from './conversion-jobs/worker/conversion-worker.module.js';
import { MaintenanceModule } from './maintenance/maintenance.module.js';
import { JobHandlerRegistry } from './queue/job-handler-registry.js';
import { QueueName } from './queue/job-contract.js';
import { createQueueProcessor } from './queue/queue-processor.factory.js';
import { QueueModule } from './queue/queue.module.js';

const QUEUE_OF_CLASS = { documents: QueueName.Documents, media: QueueName.Media, images: QueueName.Images } as const;
/** How many webhook events one worker delivers at once: each mostly waits for its receiver. */
const WEBHOOK_DELIVERY_CONCURRENCY = 8;

type ModuleImport = NonNullable<ModuleMetadata['imports']>[number];

/** What the worker needs of the APIs, each a module providing a port the worker's side owns; the composition root chooses them. */
export interface WorkerAdapters {
  /** Provides JOB_SALES (conversion-jobs/job-sales.port.ts): the ledger and the sold results at the end of a job. */
  jobSales: ModuleImport;
  /** Provides EXPIRING_UPLOADS (maintenance/expiring-uploads.port.ts): the uploads the purge removes. */
  expiringUploads: ModuleImport;
  /** Provides WEBHOOK_SIGNER (webhooks/webhook-signer.port.ts): the service's did:web key, which signs webhook events. */
  webhookSigner: ModuleImport;
}

/**
 * Everything a worker process runs: the maintenance and webhooks queues, the conversion queues of the engine classes
 * it serves (WORKER_QUEUES) with their concurrency, the modules that hold job handlers, and the reconciler.
 * It imports no API: what it needs of them comes in `adapters` (.dependency-cruiser.cjs holds it to that).
 */
@Module({})
export class WorkerModule {
  static forConfig(config: AppConfig, adapters: WorkerAdapters): DynamicModule {
    return {
      module: WorkerModule,
      imports: [DiscoveryModule, QueueModule, MaintenanceModule.purging(adapters.expiringUploads), ConversionWorkerModule.selling(adapters.jobSales, adapters.webhookSigner)],
      providers: [
        JobHandlerRegistry,
        createQueueProcessor(QueueName.Maintenance, 1),
        createQueueProcessor(QueueName.Webhooks, WEBHOOK_DELIVERY_CONCURRENCY),
        ...config.workers.queues.map((engineClass) => createQueueProcessor(QUEUE_OF_CLASS[engineClass], config.workers.concurrency[engineClass])),
      ],
    };
  }
}
