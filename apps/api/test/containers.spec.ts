import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENGINE_DESCRIPTORS } from '@fileshift/converters';
import { environmentSchema } from '../src/config/app-config.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const compose = parse(readFileSync(`${root}docker-compose.yml`, 'utf8'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string> }>;
};
const dockerfile = readFileSync(`${root}Dockerfile`, 'utf8');

/**
 * No Docker engine runs here; these read the files and check what the service needs of them. The compose
 * file's schema, topology and environments are checked in apps/stack-tests, which also runs it as processes.
 */
describe('container definitions', () => {
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
});
