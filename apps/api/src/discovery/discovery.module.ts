import { Module } from '@nestjs/common';
import { ConversionCatalogueModule } from '../catalogue/conversion-catalogue.module.js';
import { PaymentRailsModule } from '../payments/payment-rails.module.js';
import { DiscoveryController } from './discovery.controller.js';
import { OpenApiDocumentStore } from './openapi-document.store.js';

@Module({
  imports: [PaymentRailsModule, ConversionCatalogueModule],
  controllers: [DiscoveryController],
  providers: [OpenApiDocumentStore],
  exports: [OpenApiDocumentStore],
})
export class DiscoveryModule {}
