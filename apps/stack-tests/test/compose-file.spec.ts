import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_DIST } from '@fileshift/testing';
import { Ajv } from 'ajv';
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { ComposeInterpolationError, parseComposeYaml, parseEnvFile, resolveCompose } from '../src/compose-file.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const composeText = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
const localVariables = parseEnvFile(readFileSync(join(root, 'deploy/local.env'), 'utf8'));
/** What a production `.env` sets at least (README, Deployment). */
const productionVariables = {
  FACILITATOR_URL: 'https://facilitator.example',
  X402_EVM_PAY_TO: '0x000000000000000000000000000000000000dEaD',
  RECEIPT_SIGNING_KEY: '{"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}',
  S3_ACCESS_KEY_ID: 'fileshift',
  S3_SECRET_ACCESS_KEY: 'a-long-enough-secret',
  METRICS_TOKEN: 'a-metrics-token-of-32-characters',
};
const composeSchema = JSON.parse(readFileSync(fileURLToPath(new URL('../compose-spec/compose-spec.json', import.meta.url)), 'utf8')) as { $schema: string };
const ajv = new Ajv({ allErrors: true, strict: false });
// The schema names draft 07 by its https address; Ajv knows that meta-schema by the http one.
ajv.addMetaSchema({ ...draft07, $id: composeSchema.$schema });
const validateCompose = ajv.compile(composeSchema);

describe('docker-compose.yml against the Compose Specification\'s JSON schema', () => {
  it('is valid as written and as compose resolves it for production and for local use', () => {
    for (const file of [parseComposeYaml(composeText), resolveCompose(composeText, productionVariables), resolveCompose(composeText, localVariables)]) {
      expect(validateCompose(file), JSON.stringify(validateCompose.errors, null, 2)).toBe(true);
    }
  });

  it('the schema catches a mistake (so the check above can fail)', () => {
    const broken = parseComposeYaml(composeText) as { services: Record<string, Record<string, unknown>> };
    broken.services.api!.depends_on = { postgres: { condition: 'service_started_eventually' } };
    broken.services.worker!.healthcheck = { test: 'node -e 1', interval: 15 };
    expect(validateCompose(broken)).toBe(false);
    expect(validateCompose.errors!.map((error) => error.instancePath)).toEqual(expect.arrayContaining(['/services/api/depends_on', '/services/worker/healthcheck/interval']));
  });
});

describe('the stack docker-compose.yml describes', () => {
  const production = resolveCompose(composeText, productionVariables);
  const local = resolveCompose(composeText, localVariables);

  it('runs PostgreSQL, Redis, MinIO, two API replicas behind a gateway and two workers; the dev chain only in local use', () => {
    expect(Object.keys(production.services).sort()).toEqual(['api', 'gateway', 'minio', 'minio-bucket', 'postgres', 'redis', 'worker']);
    expect(Object.keys(local.services).sort()).toEqual(['api', 'devchain', 'gateway', 'minio', 'minio-bucket', 'postgres', 'redis', 'worker']);
    expect(production.services.api!.deploy?.replicas).toBe(2);
    expect(production.services.worker!.deploy?.replicas).toBe(2);
    expect(production.services.api!.environment!.ROLE).toBe('api');
    expect(production.services.worker!.environment!.ROLE).toBe('worker');
  });

  it('keeps no state inside a container: the stores on named volumes, files in the bucket, nothing mounted into api or worker', () => {
    for (const name of ['api', 'worker', 'gateway']) expect(production.services[name]!.volumes, name).toBeUndefined();
    for (const name of ['api', 'worker']) expect(production.services[name]!.environment!.STORAGE_DRIVER).toBe('s3');
    const mounted = Object.values(production.services).flatMap((service) => service.volumes ?? []).map((volume) => volume.split(':')[0]);
    expect(mounted.sort()).toEqual(['minio-data', 'postgres-data', 'redis-data']);
    expect(Object.keys(production.volumes ?? {}).sort()).toEqual(['minio-data', 'postgres-data', 'redis-data']);
  });

  it('gives every long-running service a health check, and starts api and worker only once their stores are healthy', () => {
    for (const [name, service] of Object.entries(local.services)) {
      if (name !== 'minio-bucket') expect(service.healthcheck, name).toBeDefined();
    }
    for (const name of ['api', 'worker']) {
      expect(local.services[name]!.depends_on).toMatchObject({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        'minio-bucket': { condition: 'service_completed_successfully' },
        devchain: { condition: 'service_healthy', required: false },
      });
    }
  });

  it('in production: live payments under NODE_ENV=production; locally: dev payments on the one dev chain every API shares', () => {
    expect(production.services.api!.environment).toMatchObject({ NODE_ENV: 'production', PAYMENTS_MODE: 'live', DEVCHAIN_RPC_URL: '' });
    expect(local.services.api!.environment).toMatchObject({ NODE_ENV: 'development', PAYMENTS_MODE: 'dev', DEVCHAIN_RPC_URL: 'http://devchain:8545', FACILITATOR_URL: '' });
  });

  it('stops at `docker compose up` until the secrets it needs are set', () => {
    const { S3_SECRET_ACCESS_KEY: _secret, ...withoutSecret } = productionVariables;
    expect(() => resolveCompose(composeText, withoutSecret)).toThrow(ComposeInterpolationError);
    expect(() => resolveCompose(composeText, withoutSecret)).toThrow(/S3_SECRET_ACCESS_KEY/);
    const { METRICS_TOKEN: _token, ...withoutToken } = productionVariables;
    expect(() => resolveCompose(composeText, withoutToken)).toThrow(/METRICS_TOKEN/);
  });

  it('an API started with the production environment but no payment settings refuses to start, naming them (exit 78)', () => {
    const { FACILITATOR_URL: _url, X402_EVM_PAY_TO: _payTo, RECEIPT_SIGNING_KEY: _key, ...withoutPayments } = productionVariables;
    const environment = resolveCompose(composeText, withoutPayments).services.api!.environment!;
    const run = spawnSync(process.execPath, [join(API_DIST, 'main.js')], { env: { PATH: process.env.PATH, ...environment }, encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(78);
    expect(run.stderr + run.stdout).toMatch(/FACILITATOR_URL/);
    expect(run.stderr + run.stdout).toMatch(/RECEIPT_SIGNING_KEY/);
  });
});
