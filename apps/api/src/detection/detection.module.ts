import { Module } from '@nestjs/common';
import { ConversionCatalogueModule } from '../conversion/conversion-catalogue.module.js';
import { DetectionService } from './detection.service.js';
import { PaidDetectionService } from './paid-detection.service.js';
import { X402DetectController } from './x402-detect.controller.js';

@Module({
  imports: [ConversionCatalogueModule],
  controllers: [X402DetectController],
  providers: [DetectionService, PaidDetectionService],
  exports: [DetectionService],
})
export class DetectionModule {}
