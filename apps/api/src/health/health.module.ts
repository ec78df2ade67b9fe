import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { ReadinessService } from './readiness.service.js';
import { RedisHealthClient } from './redis-health.client.js';

@Module({
  controllers: [HealthController],
  providers: [ReadinessService, RedisHealthClient],
})
export class HealthModule {}
