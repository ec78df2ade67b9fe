import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { createFileStorage } from './create-file-storage.js';
import { FILE_STORAGE } from './file-storage.js';

/** Uploaded and converted files, behind the FileStorage interface. */
@Global()
@Module({
  providers: [{ provide: FILE_STORAGE, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createFileStorage(config) }],
  exports: [FILE_STORAGE],
})
export class StorageModule {}
