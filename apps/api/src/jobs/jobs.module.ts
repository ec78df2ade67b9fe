import { Module } from '@nestjs/common';
import { ConversionCatalogueModule } from '../conversion/conversion-catalogue.module.js';
import { DetectionModule } from '../detection/detection.module.js';
import { PaymentRailsModule } from '../payments/payment-rails.module.js';
import { QueueModule } from '../queue/queue.module.js';
import { ConversionRequestService } from './conversion-request.service.js';
import { ConvertFileController } from './convert-file.controller.js';
import { DownloadController } from './download.controller.js';
import { JobLookup } from './job-lookup.service.js';
import { JobRecordsModule } from './job-records.module.js';
import { ResultFiles } from './result-files.service.js';
import { ResultPurchaseService } from './result-purchase.service.js';
import { UploadReader } from './upload-reader.js';

/** The x402 conversion jobs API (HTTP role). */
@Module({
  imports: [JobRecordsModule, ConversionCatalogueModule, DetectionModule, QueueModule, PaymentRailsModule],
  controllers: [ConvertFileController, DownloadController],
  providers: [ConversionRequestService, UploadReader, ResultPurchaseService, JobLookup, ResultFiles],
  exports: [UploadReader, ResultFiles],
})
export class JobsModule {}
