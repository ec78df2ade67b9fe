import { Module } from '@nestjs/common';
import { QueueModule } from '../queue/queue.module.js';
import { CapabilityBoard } from './capability-board.js';
import { LiveConversionsService } from './live-conversions.service.js';

/** What the live workers can convert (the live conversions), for the API; and the board workers publish their capabilities on. */
@Module({
  imports: [QueueModule],
  providers: [CapabilityBoard, LiveConversionsService],
  exports: [CapabilityBoard, LiveConversionsService],
})
export class LiveConversionsModule {}
