import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { QueueModule } from '../queue/queue.module.js';
import { MetricsController } from './metrics.controller.js';
import { QueueDepthCollector } from './queue-depth.collector.js';
import { ServiceMetrics } from './service-metrics.js';
import { WorkerMetricsServer } from './worker-metrics.server.js';

/**
 * The process's metrics, counted in every role (global: any module may count). With METRICS_TOKEN set they
 * are served at `/metrics`: on the API's server (ROLE api or all), or on METRICS_PORT by a worker-only
 * process, which has no server of its own. Without it nothing is served.
 */
@Module({})
export class MetricsModule {
  static forConfig(config: AppConfig): DynamicModule {
    const served = Boolean(config.metrics.token);
    return {
      module: MetricsModule,
      global: true,
      imports: [QueueModule],
      controllers: served && config.role !== 'worker' ? [MetricsController] : [],
      providers: [ServiceMetrics, QueueDepthCollector, ...(served && config.role === 'worker' ? [WorkerMetricsServer] : [])],
      exports: [ServiceMetrics],
    };
  }
}
