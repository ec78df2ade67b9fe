import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { DataSource } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { SCHEMA } from '../src/schema.js';
import { runMigrations } from '../src/database/run-migrations.js';

const insertKey = (id: string) =>
  `INSERT INTO api_keys (id, name, key_prefix, key_hash, requests_per_minute, daily_quota, max_upload_bytes)
   VALUES ('${id}', 'persisted', 'fsk_test', 'hash-${id}', 1, 1, 1)`;
const keyNames = async (dataSource: DataSource, id: string) =>
  ((await dataSource.query(`SELECT name FROM api_keys WHERE id = '${id}'`)) as Array<{ name: string }>).map((row) => row.name);

async function open(dataDir: string): Promise<DataSource> {
  const dataSource = await new DataSource(dataSourceOptions({ dataDir }, SCHEMA)).initialize();
  await runMigrations(dataSource);
  return dataSource;
}

/**
 * Opens the embedded database in a process of its own (the built service's modules), commits a row, says so and
 * waits to be killed.
 */
function commitInChild(dataDir: string, id: string) {
  const dist = (path: string) => new URL(`../dist/${path}`, import.meta.url).href;
  const typeorm = pathToFileURL(createRequire(import.meta.url).resolve('typeorm')).href;
  const script = `const { DataSource } = await import(${JSON.stringify(typeorm)});
const { dataSourceOptions } = await import(${JSON.stringify(dist('database/data-source-options.js'))});
const { runMigrations } = await import(${JSON.stringify(dist('database/run-migrations.js'))});
const { SCHEMA } = await import(${JSON.stringify(dist('schema.js'))});
const dataSource = await new DataSource(dataSourceOptions({ dataDir: process.argv[1] }, SCHEMA)).initialize();
await runMigrations(dataSource);
await dataSource.query(${JSON.stringify(insertKey(id))});
process.stdout.write('committed\\n');
setInterval(() => {}, 60_000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const committed = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => line === 'committed' && resolve());
    child.once('exit', (code) => reject(new Error(`the child exited (${code}) before committing`)));
  });
  return { child, committed };
}

describe('the embedded PGlite database', () => {
  let dataDir: string;
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps committed rows across a restart, with its smaller buffer pool', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fileshift-pglite-'));
    const first = await open(dataDir);
    expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
    expect(await first.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '16MB' }]);
    await first.query(insertKey('00000000-0000-4000-8000-000000000001'));
    await first.destroy();

    const second = await open(dataDir);
    expect(await keyNames(second, '00000000-0000-4000-8000-000000000001')).toEqual(['persisted']);
    await second.destroy();
  });

  it('keeps a committed row when its process is killed with SIGKILL', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fileshift-pglite-'));
    const { child, committed } = commitInChild(dataDir, '00000000-0000-4000-8000-000000000002');
    try {
      await committed;
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    const reopened = await open(dataDir);
    expect(await keyNames(reopened, '00000000-0000-4000-8000-000000000002')).toEqual(['persisted']);
    await reopened.destroy();
  }, 60_000);
});
