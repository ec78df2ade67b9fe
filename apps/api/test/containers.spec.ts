import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENGINE_DESCRIPTORS } from '@fileshift/converters';
import { environmentSchema, loadConfig } from '../src/config/app-config.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const compose = parse(readFileSync(`${root}docker-compose.yml`, 'utf8'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string>; healthcheck?: unknown; volumes?: string[]; build?: string; image?: string; profiles?: string[] }>;
  volumes: Record<string, unknown>;
};
const dockerfile = readFileSync(`${root}Dockerfile`, 'utf8');

/** No Docker engine runs here; these read the files the way Docker would and check what matters. */
describe('container definitions', () => {
  it('compose runs PostgreSQL, Redis, an api and a separate worker, each with a health check', () => {
    const always = Object.keys(compose.services).filter((name) => !compose.services[name]!.profiles);
    expect(always.sort()).toEqual(['api', 'postgres', 'redis', 'worker']);
    for (const name of ['postgres', 'redis', 'api']) expect(compose.services[name]!.healthcheck).toBeDefined();
    expect(compose.services.api!.environment!.ROLE).toBe('api');
    expect(compose.services.worker!.environment!.ROLE).toBe('worker');
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['postgres-data', 'files']));
  });

  it('compose runs the production image with live payments, and refuses to start until their settings are given', () => {
    const api = compose.services.api!.environment!;
    expect(api.PAYMENTS_MODE).toBe('live');
    expect(api.FACILITATOR_URL).toMatch(/^\$\{FACILITATOR_URL:\?.+\}$/);
    expect(api.X402_EVM_PAY_TO).toMatch(/^\$\{X402_EVM_PAY_TO:\?.+\}$/);
    expect(dockerfile).toMatch(/NODE_ENV=production/);
  });

  it('MinIO and its bucket are an opt-in profile; without the S3 variables the services keep files on their volume', () => {
    expect(compose.services.minio!.profiles).toEqual(['s3']);
    expect(compose.services['minio-bucket']!.profiles).toEqual(['s3']);
    expect(compose.services.minio!.healthcheck).toBeDefined();
    // What compose makes of `${NAME:-default}` with nothing set in the shell or .env but the required payment settings.
    const required: Record<string, string> = { FACILITATOR_URL: 'https://facilitator.example', X402_EVM_PAY_TO: '0x000000000000000000000000000000000000dEaD' };
    const interpolated = (environment: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(environment).map(([name, value]) => [name, value.replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1').replace(/\$\{([A-Z0-9_]+):\?[^}]*\}/g, (_, variable: string) => required[variable]!)]),
      );
    for (const service of ['api', 'worker']) {
      const loaded = loadConfig(interpolated(compose.services[service]!.environment!), 'compose');
      expect(loaded.ok && loaded.config.storage, service).toEqual({ driver: 'local' });
    }
  });

  it('compose only sets variables the service knows', () => {
    const known = new Set(Object.keys(environmentSchema.shape));
    for (const service of ['api', 'worker']) {
      for (const name of Object.keys(compose.services[service]!.environment!)) expect(known, name).toContain(name);
    }
  });

  it('the Dockerfile is multi-stage, on a Node LTS image, and runs as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^ARG NODE_VERSION=(22|24)$/m);
    expect(dockerfile).toMatch(/^USER fileshift$/m);
    expect(dockerfile).toContain('HEALTHCHECK');
  });

  it('the image installs every engine: the Debian packages of each engine descriptor', () => {
    const installed = /apt-get install -y --no-install-recommends ([^&]+)&&/s.exec(dockerfile)?.[1]?.split(/[\s\\]+/).filter(Boolean) ?? [];
    for (const descriptor of ENGINE_DESCRIPTORS) {
      for (const pkg of descriptor.debianPackages) expect(installed, `${descriptor.id}: ${pkg}`).toContain(pkg);
    }
  });

  it('docker compose config accepts the file when a compose client is installed', () => {
    const probe = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
    if (probe.status !== 0) {
      console.log('docker compose client not installed here: parsed the YAML only');
      return;
    }
    const result = spawnSync('docker', ['compose', '-f', `${root}docker-compose.yml`, 'config', '--quiet'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
