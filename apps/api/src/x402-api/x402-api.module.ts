import { Module } from '@nestjs/common';
import { LiveConversionsModule } from '../live-conversions/live-conversions.module.js';
import { ConversionJobsModule } from '../conversion-jobs/conversion-jobs.module.js';
import { DetectionModule } from '../detection/detection.module.js';
import { UploadReader } from '../http-kit/upload-reader.js';
import { PaymentLedgerModule } from '../payments/payment-ledger.module.js';
import { PaymentRailsModule } from '../payments/payment-rails.module.js';
import { QueueModule } from '../queue/queue.module.js';
import { ConvertFileController } from './convert-file.controller.js';
import { X402DetectController } from './detect-file-type.controller.js';
import { DownloadController } from './download.controller.js';
import { JobLookup } from './job-lookup.service.js';
import { PaidConversions } from './paid-conversions.js';
import { PaidUrlConversions } from './paid-url-conversions.js';
import { SourceUrlsModule } from '../source-urls/source-urls.module.js';
import { PaidDetectionService } from './paid-detection.service.js';
import { ResultPurchaseService } from './result-purchase.service.js';
import { ResultPurchasesModule } from './result-purchases.module.js';

/** The x402 API (/api/x402/v1): paid detection, conversion jobs, their status, result purchases and downloads (HTTP role). */
@Module({
  imports: [ConversionJobsModule, ResultPurchasesModule, LiveConversionsModule, DetectionModule, QueueModule, PaymentRailsModule, PaymentLedgerModule, SourceUrlsModule],
  controllers: [X402DetectController, ConvertFileController, DownloadController],
  providers: [PaidDetectionService, PaidConversions, PaidUrlConversions, UploadReader, ResultPurchaseService, JobLookup],
  // The hosted MCP endpoint's tools call the same services.
  exports: [PaidDetectionService, PaidConversions, PaidUrlConversions, ResultPurchaseService, JobLookup],
})
export class X402ApiModule {}
