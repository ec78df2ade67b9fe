import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ALL_QUEUES } from './job-contract.js';
import { JobService } from './job.service.js';
import { SharedPrefixWatch } from './shared-prefix-watch.js';

/** BullMQ on REDIS_URL under QUEUE_PREFIX; the queues of the job contract; the JobService. */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        connection: { url: config.redisUrl, maxRetriesPerRequest: null },
        prefix: config.queuePrefix,
      }),
    }),
    BullModule.registerQueue(...ALL_QUEUES.map((name) => ({ name }))),
  ],
  providers: [JobService, SharedPrefixWatch],
  exports: [JobService],
})
export class QueueModule {}
