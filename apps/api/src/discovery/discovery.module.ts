import { Module } from '@nestjs/common';
import { PaymentRailsModule } from '../payments/payment-rails.module.js';
import { DiscoveryController } from './discovery.controller.js';
import { OpenApiDocumentStore } from './openapi-document.store.js';

@Module({
  imports: [PaymentRailsModule],
  controllers: [DiscoveryController],
  providers: [OpenApiDocumentStore],
  exports: [OpenApiDocumentStore],
})
export class DiscoveryModule {}
