import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { AppConfig } from './config/app-config.js';
import { ConversionWorkerModule } from './conversion-jobs/worker/conversion-worker.module.js';
import { MaintenanceModule } from './maintenance/maintenance.module.js';
import { JobHandlerRegistry } from './queue/job-handler-registry.js';
import { QueueName } from './queue/job-contract.js';
import { createQueueProcessor } from './queue/queue-processor.factory.js';
import { QueueModule } from './queue/queue.module.js';
import { PurchaseReconcilerModule } from './x402-api/result-purchases.module.js';

const QUEUE_OF_CLASS = { documents: QueueName.Documents, media: QueueName.Media, images: QueueName.Images } as const;

/**
 * Everything a worker process runs: the maintenance queue, the conversion queues of the engine classes
 * it serves (WORKER_QUEUES) with their concurrency, the modules that hold job handlers, and the reconcilers.
 */
@Module({})
export class WorkerModule {
  static forConfig(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [DiscoveryModule, QueueModule, MaintenanceModule, ConversionWorkerModule, PurchaseReconcilerModule],
      providers: [
        JobHandlerRegistry,
        createQueueProcessor(QueueName.Maintenance, 1),
        ...config.workers.queues.map((engineClass) => createQueueProcessor(QUEUE_OF_CLASS[engineClass], config.workers.concurrency[engineClass])),
      ],
    };
  }
}
