import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ConversionWorkerModule } from '../jobs/conversion-worker.module.js';
import { MaintenanceModule } from '../maintenance/maintenance.module.js';
import { JobHandlerRegistry } from './job-handler-registry.js';
import { QueueName } from './job-contract.js';
import { createQueueProcessor } from './queue-processor.factory.js';
import { QueueModule } from './queue.module.js';

/** Everything a worker process runs: the queue processors and the modules that hold job handlers. */
@Module({
  imports: [DiscoveryModule, QueueModule, MaintenanceModule, ConversionWorkerModule],
  providers: [JobHandlerRegistry, createQueueProcessor(QueueName.Maintenance, 1), createQueueProcessor(QueueName.Conversion, 2)],
})
export class WorkerModule {}
