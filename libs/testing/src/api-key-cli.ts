import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built service (apps/api/dist), which client-side tests run as child processes. */
export const API_DIST = fileURLToPath(new URL('../../../apps/api/dist/', import.meta.url));

/** A key API key made by the real CLI (`apikey create`) in the database at `databaseUrl`. */
export function createApiKeyWithCli(databaseUrl: string, name: string): string {
  const run = spawnSync(process.execPath, [join(API_DIST, 'apikey.js'), 'create', '--name', name], { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl }, encoding: 'utf8' });
  const key = /\(shown once, store it now\): (fsk_\S+)/.exec(run.stdout)?.[1];
  if (!key) throw new Error(`apikey create failed: ${run.stderr}`);
  return key;
}
