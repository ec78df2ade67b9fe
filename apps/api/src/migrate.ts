import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './config/app-config.js';
import { databaseDescription, dataSourceOptions } from './database/data-source-options.js';
import { runMigrations } from './database/run-migrations.js';
import { SCHEMA } from './schema.js';
import { serviceVersion } from './version.js';

/** `npx nx run api:migrate`: applies pending migrations to DATABASE_URL (or the PGlite database) and exits. */
async function migrate(): Promise<void> {
  const loaded = loadConfig(process.env, serviceVersion());
  if (!loaded.ok) {
    process.stderr.write(`fileshift: invalid configuration:\n${loaded.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    process.exit(78);
  }
  const dataSource = await new DataSource(dataSourceOptions(loaded.config, SCHEMA)).initialize();
  try {
    const applied = await runMigrations(dataSource);
    process.stdout.write(
      `${databaseDescription(loaded.config)}: ${applied.length ? `applied ${applied.map((m) => m.name).join(', ')}` : 'schema already up to date'}\n`,
    );
  } finally {
    await dataSource.destroy();
  }
}

migrate().catch((error: unknown) => {
  process.stderr.write(`fileshift: migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
