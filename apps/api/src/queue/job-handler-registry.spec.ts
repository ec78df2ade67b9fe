import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import { JobName } from './job-contract.js';
import { JobHandlerRegistry } from './job-handler-registry.js';
import { OnJob } from './on-job.decorator.js';

@Injectable()
class UnrelatedService {
  work(): void {}
}

@Injectable()
class PurgeHandler {
  @OnJob(JobName.PurgeExpired)
  async handle(payload: { reason: string }) {
    return { handled: payload.reason };
  }
}

@Injectable()
class ConvertHandler {
  @OnJob(JobName.ConvertDocument, JobName.ConvertMedia, JobName.ConvertImage)
  async handle() {
    return { status: 'done' };
  }
}

@Injectable()
class WebhookHandler {
  @OnJob(JobName.DeliverWebhook)
  async handle() {
    return { state: 'delivered' };
  }
}

async function contextWith(...providers: Array<new (...args: never[]) => unknown>) {
  @Module({ imports: [DiscoveryModule], providers: [JobHandlerRegistry, ...providers] })
  class TestModule {}
  return NestFactory.createApplicationContext(TestModule, { logger: false, abortOnError: false });
}

describe('JobHandlerRegistry', () => {
  it('refuses to start when a job of the contract has no handler', async () => {
    await expect(contextWith(UnrelatedService)).rejects.toThrow(`No handler for job(s): ${JobName.PurgeExpired}`);
  });

  it('refuses two handlers for one job', async () => {
    @Injectable()
    class SecondPurgeHandler {
      @OnJob(JobName.PurgeExpired)
      async handle() {}
    }
    await expect(contextWith(PurgeHandler, SecondPurgeHandler, ConvertHandler, WebhookHandler)).rejects.toThrow('Two handlers');
  });

  it('dispatches a job to its handler', async () => {
    const context = await contextWith(PurgeHandler, ConvertHandler, WebhookHandler);
    const registry = context.get(JobHandlerRegistry);
    const result = await registry.run(JobName.PurgeExpired, { reason: 'manual' }, { jobId: '1', attempt: 1, enqueuedAt: Date.now() });
    expect(result).toEqual({ handled: 'manual' });
    await context.close();
  });
});
