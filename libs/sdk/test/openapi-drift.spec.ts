import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const sdk = (path: string) => join(root, 'libs/sdk', path);

describe('the SDK is in step with the server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-drift-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has the OpenAPI document the server serves, and the types generated from it (else: npx nx run sdk:generate)', () => {
    // The same two commands as the `generate` target, into a temporary directory.
    execFileSync(process.execPath, [join(root, 'apps/api/dist/export-openapi.js'), join(dir, 'openapi.json')], { cwd: root, stdio: 'pipe' });
    execFileSync(process.execPath, [sdk('scripts/generate-types.mjs'), join(dir, 'openapi.json'), join(dir, 'openapi.ts')], { cwd: root, stdio: 'pipe' });
    expect(readFileSync(join(dir, 'openapi.json'), 'utf8')).toBe(readFileSync(sdk('openapi/openapi.json'), 'utf8'));
    expect(readFileSync(join(dir, 'openapi.ts'), 'utf8')).toBe(readFileSync(sdk('src/generated/openapi.ts'), 'utf8'));
  });

  it('has the target formats generated from the engines and the format catalogue (else: npx nx run sdk:generate)', () => {
    execFileSync(process.execPath, [sdk('scripts/generate-target-formats.mjs'), join(dir, 'target-formats.ts')], { cwd: root, stdio: 'pipe' });
    expect(readFileSync(join(dir, 'target-formats.ts'), 'utf8')).toBe(readFileSync(sdk('src/generated/target-formats.ts'), 'utf8'));
  });

  it('types format: binary as Blob, so multipart and octet-stream bodies are typed (not string)', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'binary', version: '1' },
      paths: {},
      components: { schemas: { Upload: { type: 'object', properties: { file: { type: 'string', format: 'binary' }, name: { type: 'string' } }, required: ['file', 'name'] } } },
    };
    writeFileSync(join(dir, 'binary.json'), JSON.stringify(document));
    execFileSync(process.execPath, [sdk('scripts/generate-types.mjs'), join(dir, 'binary.json'), join(dir, 'binary.ts')], { stdio: 'pipe' });
    const types = readFileSync(join(dir, 'binary.ts'), 'utf8');
    expect(types).toContain('file: Blob;');
    expect(types).toContain('name: string;');
  });
});
