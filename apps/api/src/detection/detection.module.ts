import { Module } from '@nestjs/common';
import { LiveConversionsModule } from '../live-conversions/live-conversions.module.js';
import { DetectionService } from './detection.service.js';

/** Detection for both APIs: the detector and what the live workers convert. */
@Module({
  imports: [LiveConversionsModule],
  providers: [DetectionService],
  exports: [DetectionService],
})
export class DetectionModule {}
