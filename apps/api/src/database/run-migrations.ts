import type { DataSource, Migration } from 'typeorm';

/** Any constant works; it only has to be the same in every instance of the service. */
const MIGRATION_LOCK_KEY = 7_305_441_902;

/**
 * Applies pending migrations while holding a PostgreSQL advisory lock, so several instances
 * starting at once apply each migration exactly once.
 */
export async function runMigrations(dataSource: DataSource): Promise<Migration[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}
