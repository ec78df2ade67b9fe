import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EXPIRING_UPLOADS } from '../maintenance/expiring-uploads.port.js';
import { KeyApiConversion } from './key-api-conversion.entity.js';
import { KeyApiConversionRecords } from './key-api-conversion-records.js';
import { KeyApiUpload } from './key-api-upload.entity.js';
import { KeyApiUploads } from './key-api-uploads.js';

/** The key API's uploads and conversion records, shared by the HTTP role and the maintenance worker (as its ExpiringUploads). */
@Module({
  imports: [TypeOrmModule.forFeature([KeyApiUpload, KeyApiConversion])],
  providers: [KeyApiUploads, KeyApiConversionRecords, { provide: EXPIRING_UPLOADS, useExisting: KeyApiUploads }],
  exports: [KeyApiUploads, KeyApiConversionRecords, EXPIRING_UPLOADS],
})
export class KeyApiRecordsModule {}
