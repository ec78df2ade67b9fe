import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import type { AppConfig } from '../config/app-config.js';
import { initializePgliteDirectory } from './initialize-pglite-directory.js';
import { lockPgliteDirectory } from './pglite-lock.js';
import { pgliteStartParams } from './pglite-start-params.js';
import { compilePgliteWasmModule } from './pglite-wasm-module.js';

/** The service's tables and their history: its entities and migrations, listed where the app is put together. */
export interface DatabaseSchema {
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: NonNullable<DataSourceOptions['migrations']>;
}

/**
 * PostgreSQL when DATABASE_URL is set; otherwise an embedded PGlite database under DATA_DIR so
 * the service runs on a machine without PostgreSQL. Never `synchronize`: migrations only.
 */
export function dataSourceOptions(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>, schema: DatabaseSchema): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities: schema.entities,
    migrations: schema.migrations,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    migrationsRun: false,
    // gen_random_uuid() is built into PostgreSQL 13+ and PGlite: no extension to install.
    installExtensions: false,
    uuidExtension: 'pgcrypto' as const,
  };
  if (config.databaseUrl) {
    return { ...common, url: config.databaseUrl, extra: { max: 10, connectionTimeoutMillis: 5000 } };
  }
  const dataDir = resolve(join(config.dataDir, 'pglite'));
  mkdirSync(dataDir, { recursive: true });
  lockPgliteDirectory(dataDir);
  initializePgliteDirectory(dataDir);
  // PGlite is one in-process connection; a pool of one keeps TypeORM from waiting on itself.
  return { ...common, driver: new PGliteDriver({ dataDir, startParams: pgliteStartParams(), pgliteWasmModule: compilePgliteWasmModule() }).driver, poolSize: 1 };
}

export function databaseDescription(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `embedded PGlite in ${resolve(join(config.dataDir, 'pglite'))}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
}
