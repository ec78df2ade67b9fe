import { Module } from '@nestjs/common';
import { DiscoveryController } from './discovery.controller.js';
import { OpenApiDocumentStore } from './openapi-document.store.js';

@Module({
  controllers: [DiscoveryController],
  providers: [OpenApiDocumentStore],
  exports: [OpenApiDocumentStore],
})
export class DiscoveryModule {}
