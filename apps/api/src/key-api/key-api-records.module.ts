import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KeyApiUpload } from './key-api-upload.entity.js';
import { KeyApiUploads } from './key-api-uploads.js';

/** The key API's uploads, shared by the HTTP role and the maintenance worker. */
@Module({
  imports: [TypeOrmModule.forFeature([KeyApiUpload])],
  providers: [KeyApiUploads],
  exports: [KeyApiUploads],
})
export class KeyApiRecordsModule {}
