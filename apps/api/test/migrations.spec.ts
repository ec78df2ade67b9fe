import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { runMigrations } from '../src/database/run-migrations.js';
import { MIGRATIONS, SCHEMA } from '../src/schema.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

async function tableNames(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ table_name: string }> = await dataSource.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

async function expectMigratedSchema(dataSource: DataSource): Promise<void> {
  expect(await tableNames(dataSource)).toEqual(expect.arrayContaining(['payment_records', 'schema_migrations']));
  const applied: Array<{ name: string }> = await dataSource.query('SELECT name FROM schema_migrations ORDER BY id');
  expect(applied.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
  // The schema matches the entities: TypeORM would have to change nothing.
  const pending = await dataSource.driver.createSchemaBuilder().log();
  expect(pending.upQueries.map((query) => query.query)).toEqual([]);
}

describe('migrations on PostgreSQL', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => database?.drop());

  it('apply every migration once, even with several instances starting at the same time', async () => {
    database = await createTestDatabase();
    const sources = await Promise.all(
      [1, 2, 3].map(() => new DataSource(dataSourceOptions({ databaseUrl: database!.url, dataDir: '.' }, SCHEMA)).initialize()),
    );
    try {
      const results = await Promise.all(sources.map((source) => runMigrations(source)));
      expect(results.map((applied) => applied.length).sort()).toEqual([0, 0, MIGRATIONS.length]);
      await expectMigratedSchema(sources[0]!);
      expect(await runMigrations(sources[0]!)).toEqual([]);
    } finally {
      await Promise.all(sources.map((source) => source.destroy()));
    }
  });
});

describe('migrations on embedded PGlite', () => {
  it('apply on a fresh data directory and persist across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fileshift-pglite-'));
    try {
      const first = await new DataSource(dataSourceOptions({ dataDir }, SCHEMA)).initialize();
      expect((await runMigrations(first)).length).toBe(MIGRATIONS.length);
      await expectMigratedSchema(first);
      await first.destroy();

      const second = await new DataSource(dataSourceOptions({ dataDir }, SCHEMA)).initialize();
      expect(await runMigrations(second)).toEqual([]);
      await expectMigratedSchema(second);
      await second.destroy();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the migrate target', () => {
  it('applies the migrations of the built service to DATABASE_URL and reports it', async () => {
    const { spawnSync } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const database = await createTestDatabase();
    try {
      const script = fileURLToPath(new URL('../dist/migrate.js', import.meta.url));
      const run = () => spawnSync(process.execPath, [script], { env: { PATH: process.env.PATH, DATABASE_URL: database.url }, encoding: 'utf8' });
      const first = run();
      expect(first.status).toBe(0);
      expect(first.stdout).toContain(`applied ${MIGRATIONS.map((m) => m.name).join(', ')}`);
      const second = run();
      expect(second.stdout).toContain('schema already up to date');
    } finally {
      await database.drop();
    }
  });
});
