import { Module } from '@nestjs/common';
import { ConversionCatalogueModule } from '../catalogue/conversion-catalogue.module.js';
import { HealthController } from './health.controller.js';
import { ReadinessService } from './readiness.service.js';
import { RedisHealthClient } from './redis-health.client.js';

@Module({
  imports: [ConversionCatalogueModule],
  controllers: [HealthController],
  providers: [ReadinessService, RedisHealthClient],
})
export class HealthModule {}
