import { Global, Module } from '@nestjs/common';
import { join } from 'node:path';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { FILE_STORAGE } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';

/** Uploaded and converted files, under DATA_DIR/files. */
@Global()
@Module({
  providers: [{ provide: FILE_STORAGE, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new LocalFileStorage(join(config.dataDir, 'files')) }],
  exports: [FILE_STORAGE],
})
export class StorageModule {}
