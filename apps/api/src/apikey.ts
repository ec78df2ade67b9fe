import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { ApiKey } from './api-keys/api-key.entity.js';
import type { KeyApiLimits } from './config/key-api-limits.js';
import { ApiKeysRepository } from './api-keys/api-keys.repository.js';
import { loadConfig } from './config/app-config.js';
import { dataSourceOptions } from './database/data-source-options.js';
import { SCHEMA } from './schema.js';
import { runMigrations } from './database/run-migrations.js';
import { MAX_UPLOAD_BYTES } from './config/upload-limit.js';
import { serviceVersion } from './version.js';

const USAGE = `usage: npm run apikey -- <command>
  create --name <name> [--requests-per-minute N] [--daily-quota N] [--max-upload-bytes N]
                       prints the new key once; only its hash is stored
  list [--json]        every key with its limits and state (never the secret)
  revoke <id|prefix>   revokes a key at once`;

class UsageError extends Error {}

/** `npm run apikey -- …`: creates, lists and revokes key API keys in the configured database. */
async function main(argv: string[]): Promise<void> {
  const loaded = loadConfig(process.env, serviceVersion());
  if (!loaded.ok) throw new UsageError(`invalid configuration:\n${loaded.problems.map((p) => `  - ${p}`).join('\n')}`);
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'requests-per-minute': { type: 'string' },
      'daily-quota': { type: 'string' },
      'max-upload-bytes': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, target] = positionals;
  if (values.help || !command) throw new UsageError(USAGE);

  const dataSource = await new DataSource(dataSourceOptions(loaded.config, SCHEMA)).initialize();
  try {
    await runMigrations(dataSource);
    const keys = new ApiKeysRepository(dataSource.getRepository(ApiKey));
    const defaults = loaded.config.keyApi.keyDefaults;
    switch (command) {
      case 'create': {
        if (!values.name?.trim()) throw new UsageError(`create needs --name\n${USAGE}`);
        const limits: KeyApiLimits = {
          requestsPerMinute: positiveInteger(values['requests-per-minute'], defaults.requestsPerMinute, '--requests-per-minute'),
          dailyQuota: positiveInteger(values['daily-quota'], defaults.dailyQuota, '--daily-quota'),
          maxUploadBytes: positiveInteger(values['max-upload-bytes'], defaults.maxUploadBytes, '--max-upload-bytes', MAX_UPLOAD_BYTES),
        };
        const { key, secret } = await keys.create(values.name.trim(), limits);
        print(`created API key "${key.name}" (id ${key.id})`);
        print(`  limits: ${describeLimits(key)}`);
        print(`  key (shown once, store it now): ${secret}`);
        return;
      }
      case 'list': {
        const all = await keys.list();
        if (values.json) return print(JSON.stringify(all.map(({ keyHash: _hash, ...shown }) => shown), null, 2));
        if (all.length === 0) return print('no API keys');
        for (const key of all) {
          print(`${key.id}  ${key.keyPrefix}…  ${key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active'}  "${key.name}"  ${describeLimits(key)}`);
        }
        return;
      }
      case 'revoke': {
        if (!target) throw new UsageError(`revoke needs a key id or prefix\n${USAGE}`);
        const revoked = await keys.revoke(target);
        if (revoked.length === 0) throw new UsageError(`no active API key with id or prefix ${target}`);
        for (const key of revoked) print(`revoked API key "${key.name}" (id ${key.id})`);
        return;
      }
      default:
        throw new UsageError(`unknown command ${command}\n${USAGE}`);
    }
  } finally {
    await dataSource.destroy();
  }
}

function positiveInteger(value: string | undefined, fallback: number, flag: string, max = 1_000_000_000): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > max) throw new UsageError(`${flag} must be an integer from 1 to ${max}`);
  return parsed;
}

function describeLimits(key: KeyApiLimits): string {
  return `${key.requestsPerMinute}/min, ${key.dailyQuota}/day, uploads up to ${key.maxUploadBytes} bytes`;
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`apikey: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof UsageError ? 64 : 1);
});
