import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QueueModule } from '../queue/queue.module.js';
import { WebhookDeliveries } from './webhook-deliveries.repository.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';

/** Jobs' webhooks and how their deliveries go, and the hand-over of an ended job's event to the webhooks queue. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookDelivery]), QueueModule],
  providers: [WebhookDeliveries, WebhookDispatcher],
  exports: [WebhookDeliveries, WebhookDispatcher],
})
export class WebhookRecordsModule {}
