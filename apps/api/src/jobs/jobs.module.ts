import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConversionGraphModule } from '../conversion/conversion-graph.module.js';
import { DetectionModule } from '../detection/detection.module.js';
import { QueueModule } from '../queue/queue.module.js';
import { ConversionJob } from './conversion-job.entity.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import { ConversionJobsService } from './conversion-jobs.service.js';
import { ConvertFileController } from './convert-file.controller.js';
import { DownloadController } from './download.controller.js';
import { ResultPurchaseService } from './result-purchase.service.js';
import { UploadReader } from './upload-reader.js';

/** The x402 conversion jobs API (HTTP role). */
@Module({
  imports: [TypeOrmModule.forFeature([ConversionJob]), ConversionGraphModule, DetectionModule, QueueModule],
  controllers: [ConvertFileController, DownloadController],
  providers: [ConversionJobsRepository, ConversionJobsService, UploadReader, ResultPurchaseService],
})
export class JobsModule {}
