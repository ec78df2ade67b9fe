import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module.js';
import { LiveConversionsModule } from '../live-conversions/live-conversions.module.js';
import { DetectionModule } from '../detection/detection.module.js';
import { ConversionJobsModule } from '../conversion-jobs/conversion-jobs.module.js';
import { UploadReader } from '../http-kit/upload-reader.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { KeyApiAccessGuard } from './key-api-access.guard.js';
import { KeyApiConversions } from './key-api-conversions.js';
import { KeyApiDownloadController } from './key-api-download.controller.js';
import { KeyApiRecordsModule } from './key-api-records.module.js';
import { KeyConvertController } from './key-convert.controller.js';
import { KeyDetectController } from './key-detect.controller.js';
import { KeyOutputFormatsController } from './key-output-formats.controller.js';
import { KeyUploadController } from './key-upload.controller.js';
import { KeyApiUrlUploads } from './key-api-url-uploads.js';
import { SourceUrlsModule } from '../source-urls/source-urls.module.js';

/** The key-authenticated API (/api/v1 and its /tmp/ downloads) on the shared detection, jobs and storage. */
@Module({
  imports: [ApiKeysModule, RateLimitModule, LiveConversionsModule, DetectionModule, ConversionJobsModule, KeyApiRecordsModule, SourceUrlsModule],
  controllers: [KeyUploadController, KeyConvertController, KeyOutputFormatsController, KeyDetectController, KeyApiDownloadController],
  providers: [KeyApiAccessGuard, KeyApiConversions, KeyApiUrlUploads, UploadReader],
})
export class KeyApiModule {}
