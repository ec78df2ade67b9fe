import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Logger, NotFoundException, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ApiErrorException } from '../http-kit/api-error.exception.js';
import { errorBodyFor } from '../http-kit/error-body.js';
import { toPublicError } from '../http-kit/to-public-error.js';
import { metricsAccess } from './metrics-access.js';
import { metricsRefusal } from './metrics-refusal.js';
import { ServiceMetrics } from './service-metrics.js';

/**
 * A worker-only process has no HTTP server: with METRICS_TOKEN set it serves `GET /metrics` (and nothing
 * else) on HOST:METRICS_PORT, with the same token and the same answers as the API's `/metrics`.
 */
@Injectable()
export class WorkerMetricsServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WorkerMetricsServer.name);
  private readonly server: Server;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: ServiceMetrics,
  ) {
    this.server = createServer((request, response) => void this.answer(request, response));
  }

  async onApplicationBootstrap(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.config.metrics.workerPort, this.config.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.logger.log(`metrics on http://${this.config.host}:${this.port()}/metrics`);
  }

  async onModuleDestroy(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The port it listens on (METRICS_PORT, or the one the system chose for 0). */
  port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?', 1)[0];
    try {
      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) throw new NotFoundException();
      if (metricsAccess(this.config.metrics.token!, request.headers.authorization) !== 'granted') throw metricsRefusal();
      const exposition = await this.metrics.registry.metrics();
      response.writeHead(200, { 'Content-Type': this.metrics.registry.contentType, 'Cache-Control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : exposition);
    } catch (exception) {
      const error = toPublicError(exception);
      if (error.status >= 500) this.logger.error(`metrics scrape failed: ${(exception as Error).message}`);
      const headers = exception instanceof ApiErrorException ? exception.headers : {};
      response.writeHead(error.status, { ...headers, 'Content-Type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(errorBodyFor('other', error)));
    }
  }
}
