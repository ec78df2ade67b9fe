import { Module } from '@nestjs/common';
import { ConversionCatalogueModule } from '../catalogue/conversion-catalogue.module.js';
import { DetectionService } from './detection.service.js';

/** Detection for both APIs: the detector and what the live workers convert. */
@Module({
  imports: [ConversionCatalogueModule],
  providers: [DetectionService],
  exports: [DetectionService],
})
export class DetectionModule {}
