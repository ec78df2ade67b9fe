import { Module } from '@nestjs/common';
import { LiveConversionsModule } from '../live-conversions/live-conversions.module.js';
import { PaymentRailsModule } from '../payments/payment-rails.module.js';
import { DiscoveryController } from './discovery.controller.js';
import { OpenApiDocumentModule } from '../http-kit/openapi-document.store.js';

@Module({
  imports: [PaymentRailsModule, LiveConversionsModule, OpenApiDocumentModule],
  controllers: [DiscoveryController],
})
export class DiscoveryModule {}
