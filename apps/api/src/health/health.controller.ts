import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ApiErrorCode, ApiErrorException } from '../http-kit/api-error.exception.js';
import { ApiErrors, ApiJsonResponse } from '../http-kit/api-docs.decorators.js';
import { HealthResponseSchema, ReadinessResponseSchema } from './health.schemas.js';
import { ReadinessService } from './readiness.service.js';

export const SERVICE_NAME = 'fileshift';

@ApiTags('discovery')
@Controller('api/x402/v1/health')
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly readiness: ReadinessService,
  ) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ operationId: 'getHealth', summary: 'Liveness: the service process is up (free).' })
  @ApiJsonResponse(200, HealthResponseSchema, 'The service is up.')
  health(): z.infer<typeof HealthResponseSchema> {
    return { status: 'ok', service: SERVICE_NAME, version: this.config.version };
  }

  @Get('ready')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'getReadiness',
    summary:
      'Readiness: PostgreSQL and Redis answer (free); says how many live workers run their engines sandboxed, and how many without by choice (ENGINE_SANDBOX=off). 503 names the failing dependency, or the workers running engines without the sandbox their setting requires.',
  })
  @ApiJsonResponse(200, ReadinessResponseSchema, 'Every dependency answered.')
  @ApiErrors(503)
  async ready(): Promise<z.infer<typeof ReadinessResponseSchema>> {
    const [checks, engines] = await Promise.all([this.readiness.check(), this.readiness.engines()]);
    const down = Object.entries(checks).filter(([, state]) => state === 'down').map(([name]) => name);
    if (down.length > 0) {
      throw new ApiErrorException(
        503,
        ApiErrorCode.DependencyUnavailable,
        `Not ready: ${down.join(' and ')} unavailable.`,
        { checks },
        { 'Retry-After': '5' },
      );
    }
    // A worker running engines without the sandbox its setting requires serves hostile files unguarded: not ready.
    if (engines && engines.unsandboxed > 0) {
      throw new ApiErrorException(
        503,
        ApiErrorCode.DependencyUnavailable,
        `Not ready: ${engines.unsandboxed} worker(s) run engines without the sandbox ENGINE_SANDBOX requires; stop them, or set ENGINE_SANDBOX=off on them to run unsandboxed by choice.`,
        { checks, engines },
        { 'Retry-After': '5' },
      );
    }
    return { status: 'healthy', service: SERVICE_NAME, timestamp: Math.floor(Date.now() / 1000), checks, engines: engines && { workers: engines.workers, sandboxed: engines.sandboxed, off: engines.off } };
  }
}
