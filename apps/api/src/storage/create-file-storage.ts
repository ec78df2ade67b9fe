import { join } from 'node:path';
import type { AppConfig } from '../config/app-config.js';
import type { FileStorage } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';

/** The storage driver of a configuration (tests use it too, so they never need to know a driver's layout). */
export function createFileStorage(config: Pick<AppConfig, 'dataDir'>): FileStorage {
  return new LocalFileStorage(join(config.dataDir, 'files'));
}
