import { readFileSync } from 'node:fs';

/** The service version, from apps/api/package.json (one level above src/ and dist/). */
export function serviceVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}
