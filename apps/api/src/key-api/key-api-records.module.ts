import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KeyApiConversion } from './key-api-conversion.entity.js';
import { KeyApiConversionRecords } from './key-api-conversion-records.js';
import { KeyApiUpload } from './key-api-upload.entity.js';
import { KeyApiUploads } from './key-api-uploads.js';

/** The key API's uploads and conversion records, shared by the HTTP role and the maintenance worker. */
@Module({
  imports: [TypeOrmModule.forFeature([KeyApiUpload, KeyApiConversion])],
  providers: [KeyApiUploads, KeyApiConversionRecords],
  exports: [KeyApiUploads, KeyApiConversionRecords],
})
export class KeyApiRecordsModule {}
