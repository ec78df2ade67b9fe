import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { metricsAccess } from './metrics-access.js';
import { metricsRefusal } from './metrics-refusal.js';
import { ServiceMetrics } from './service-metrics.js';

/**
 * `GET /metrics` on the API's own server, outside the public prefixes; registered only when METRICS_TOKEN
 * is set (otherwise the path is an unknown route: 404). Left out of the OpenAPI document: it is for
 * operators, not clients.
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: ServiceMetrics,
  ) {}

  @Get()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    if (metricsAccess(this.config.metrics.token!, authorization) !== 'granted') throw metricsRefusal();
    const exposition = await this.metrics.registry.metrics();
    void reply.header('Content-Type', this.metrics.registry.contentType).header('Cache-Control', 'no-store');
    return exposition;
  }
}
