import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LiveService, startLiveService } from '@fileshift/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyPng } from './support/dev-chain.js';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const tsc = fileURLToPath(new URL('../../../node_modules/.bin/tsc', import.meta.url));

/** The app a new user writes: strict TypeScript against the installed package, a typed target, options, a paid conversion. */
const APP = `import { readFileSync, writeFileSync } from 'node:fs';
import { createClient, createPayer, parseUsdc, type TargetFormat } from '@fileshift/sdk';
import { fileFromPath } from '@fileshift/sdk/node';
import { mnemonicToAccount } from 'viem/accounts';

// @ts-expect-error a misspelt target format does not compile
const misspelt: TargetFormat = 'wepb';
const target: TargetFormat = 'webp';

const [baseUrl, network, usdc, input, output] = process.argv.slice(2) as [string, string, \`0x\${string}\`, string, string];
const account = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 9 });
const payer = createPayer({ account, allow: [{ network, asset: usdc }], maxPerPayment: parseUsdc('0.05'), budget: parseUsdc('0.1') });
const client = createClient({ baseUrl, payer });
const catalogue = await client.getFormats();
const converted = await client.convertFile({ input: await fileFromPath(input), targetFormat: target, options: { width: 4 } });
writeFileSync(output, converted.data);
console.log(JSON.stringify({ misspelt, pairs: catalogue.pairs, receipts: converted.receipts.map((receipt) => receipt.amount), size: readFileSync(output).length, filename: converted.filename }));
`;

/**
 * The SDK as a new user meets it: \`npm pack\`, installed with viem into an empty project (dependencies from npm's
 * cache, or the registry), an app compiled by strict TypeScript with Node16 resolution, then run against the
 * live service on its dev chain.
 */
describe('the packed SDK in a fresh project', () => {
  let service: LiveService;
  let project: string;

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'fileshift-sdk-user-'));
    const pack = spawnSync('npm', ['pack', '--pack-destination', project, '--silent'], { cwd: sdkDir, encoding: 'utf8' });
    expect(pack.status, pack.stderr).toBe(0);
    const tarball = readdirSync(project).find((name) => name.endsWith('.tgz'))!;
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sdk-user', private: true, type: 'module' }));
    const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', `./${tarball}`, 'viem@2', '@types/node@20'], { cwd: project, encoding: 'utf8', timeout: 300_000 });
    expect(install.status, install.stderr).toBe(0);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'node16', moduleResolution: 'node16', target: 'es2022', outDir: 'dist', skipLibCheck: false, types: ['node'] } }));
    writeFileSync(join(project, 'app.ts'), APP);
    service = await startLiveService();
  }, 400_000);

  afterAll(async () => {
    await service?.stop();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('compiles under strict TypeScript (a misspelt target does not) and converts a file, paying within its limits', () => {
    const compiled = spawnSync(tsc, ['-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8', env: { ...process.env, NODE_PATH: '' } });
    expect(compiled.stdout + compiled.stderr, 'tsc').toBe('');
    expect(compiled.status).toBe(0);
    const input = join(project, 'dot.png');
    writeFileSync(input, tinyPng());
    const run = spawnSync(process.execPath, ['dist/app.js', service.baseUrl, service.devChain.network, service.devChain.usdc, input, join(project, 'dot.webp')], { cwd: project, encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { pairs: number; receipts: string[]; size: number; filename: string };
    expect(result.pairs).toBeGreaterThan(0);
    expect(result.receipts).toEqual(['2000', '20000']);
    expect(result.size).toBeGreaterThan(0);
    expect(result.filename).toBe('dot.webp');
  }, 180_000);
});
