import { Injectable } from '@nestjs/common';
import { ENGINE_CLASSES } from '@fileshift/converters';
import { Gauge } from 'prom-client';
import { CONVERSION_JOB_OF_CLASS } from '../queue/job-contract.js';
import { JobService } from '../queue/job.service.js';
import { within } from '../queue/within.js';
import { ServiceMetrics } from './service-metrics.js';

/** A scrape must answer even when Redis does not: the queue depth is then left out, not waited for. */
const COUNT_TIMEOUT_MS = 1000;

/**
 * `fileshift_queue_jobs`: the jobs of each engine class's queue, waiting, active and delayed, read from
 * BullMQ when Prometheus scrapes (nothing is polled in between). Every process of a deployment reports the
 * same shared queues: aggregate with max, not sum.
 */
@Injectable()
export class QueueDepthCollector {
  constructor(metrics: ServiceMetrics, jobs: JobService) {
    new Gauge({
      name: 'fileshift_queue_jobs',
      help: 'Conversion jobs in the queue of each engine class, by state (waiting, active, delayed), as BullMQ holds them at scrape time.',
      labelNames: ['engine_class', 'state'] as const,
      registers: [metrics.registry],
      async collect() {
        this.reset();
        await Promise.all(
          ENGINE_CLASSES.map(async (engineClass) => {
            const queue = jobs.queueOf(CONVERSION_JOB_OF_CLASS[engineClass]);
            const counts = await within(queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed'), COUNT_TIMEOUT_MS, 'Redis').catch(() => undefined);
            if (!counts) return;
            this.set({ engine_class: engineClass, state: 'waiting' }, (counts.waiting ?? 0) + (counts.prioritized ?? 0));
            this.set({ engine_class: engineClass, state: 'active' }, counts.active ?? 0);
            this.set({ engine_class: engineClass, state: 'delayed' }, counts.delayed ?? 0);
          }),
        );
      },
    });
  }
}
