import { Module } from '@nestjs/common';
import { ConversionCatalogueModule } from '../catalogue/conversion-catalogue.module.js';
import { PaymentRailsModule } from '../payments/payment-rails.module.js';
import { DiscoveryController } from './discovery.controller.js';
import { OpenApiDocumentModule } from '../http-kit/openapi-document.store.js';

@Module({
  imports: [PaymentRailsModule, ConversionCatalogueModule, OpenApiDocumentModule],
  controllers: [DiscoveryController],
})
export class DiscoveryModule {}
