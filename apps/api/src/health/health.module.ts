import { Module } from '@nestjs/common';
import { LiveConversionsModule } from '../live-conversions/live-conversions.module.js';
import { HealthController } from './health.controller.js';
import { ReadinessService } from './readiness.service.js';
import { RedisHealthClient } from './redis-health.client.js';

@Module({
  imports: [LiveConversionsModule],
  controllers: [HealthController],
  providers: [ReadinessService, RedisHealthClient],
})
export class HealthModule {}
