import { DelayedError, type Job } from 'bullmq';
import { describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../config/app-config.js';
import { JobName, QueueName } from './job-contract.js';
import type { JobHandlerRegistry } from './job-handler-registry.js';
import { createQueueProcessor } from './queue-processor.factory.js';

const DEPLOYMENT = { id: 'deployment-1', database: 'test' };

/** A queue processor over a stand-in BullMQ worker, running jobs with `run`. */
function processorWith(run: JobHandlerRegistry['run']) {
  const Processor = createQueueProcessor(QueueName.Webhooks, 1);
  const processor = new Processor({ run } as JobHandlerRegistry, DEPLOYMENT, { shutdownTimeoutMs: 30_000 } as AppConfig) as InstanceType<typeof Processor> & {
    onModuleDestroy(): Promise<void>;
  };
  const worker = { pause: vi.fn(async () => undefined), close: vi.fn(async () => undefined) };
  // Where @nestjs/bullmq's WorkerHost keeps the BullMQ worker it registered.
  Object.assign(processor, { _worker: worker });
  return { processor, worker };
}

function webhookJob() {
  const moveToDelayed = vi.fn(async (_timestamp: number, _token?: string) => undefined);
  const job = { id: 'b-1', name: JobName.DeliverWebhook, data: { deploymentId: DEPLOYMENT.id, payload: { jobId: 'job-1' } }, attemptsMade: 0, timestamp: Date.now(), moveToDelayed };
  return { job: job as unknown as Job, moveToDelayed };
}

describe('the queue processor at shutdown', () => {
  it('hands back, unrun, a job BullMQ gives it after the shutdown began (a fetch that returned after the pause)', async () => {
    const run = vi.fn(async () => ({ state: 'delivered' }));
    const { processor, worker } = processorWith(run);
    await processor.onModuleDestroy();
    expect(worker.close).toHaveBeenCalled();

    const { job, moveToDelayed } = webhookJob();
    const before = Date.now();
    await expect(processor.process(job, 'token-1')).rejects.toBeInstanceOf(DelayedError);
    expect(run).not.toHaveBeenCalled();
    expect(moveToDelayed).toHaveBeenCalledWith(expect.any(Number), 'token-1');
    expect(moveToDelayed.mock.calls[0]![0]).toBeGreaterThanOrEqual(before);
    expect(moveToDelayed.mock.calls[0]![0]).toBeLessThanOrEqual(Date.now());
  });

  it('lets a job that was running when the shutdown began end before it closes the worker', async () => {
    let finish!: () => void;
    const run = vi.fn(() => new Promise<unknown>((resolve) => (finish = () => resolve({ state: 'delivered' }))));
    const { processor, worker } = processorWith(run);
    const { job } = webhookJob();
    const running = processor.process(job, 'token-1');
    const closing = processor.onModuleDestroy();
    await vi.waitFor(() => expect(worker.pause).toHaveBeenCalled());
    expect(worker.close).not.toHaveBeenCalled();
    finish();
    await expect(running).resolves.toEqual({ state: 'delivered' });
    await closing;
    expect(worker.close).toHaveBeenCalled();
  });
});
