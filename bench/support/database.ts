import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const ADMIN = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A PostgreSQL database of the benchmark's own, migrated by the built service's migrate.js; drop() removes it. */
export async function createBenchDatabase() {
  const name = `fileshift_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN);
  url.pathname = `/${name}`;
  const migrated = spawnSync(process.execPath, ['apps/api/dist/migrate.js'], { env: { PATH: process.env.PATH, DATABASE_URL: url.toString() }, encoding: 'utf8' });
  if (migrated.status !== 0) throw new Error(`migrations failed: ${migrated.stderr}`);
  return {
    name,
    url: url.toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}
