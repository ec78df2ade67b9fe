import { Module } from '@nestjs/common';
import { QueueModule } from '../queue/queue.module.js';
import { CapabilityBoard } from './capability-board.js';
import { ConversionCatalogue } from './conversion-catalogue.service.js';

/** What the live workers can convert, for the API; and the board workers publish their capabilities on. */
@Module({
  imports: [QueueModule],
  providers: [CapabilityBoard, ConversionCatalogue],
  exports: [CapabilityBoard, ConversionCatalogue],
})
export class ConversionCatalogueModule {}
