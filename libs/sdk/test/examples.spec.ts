import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LiveService, startLiveService } from '@fileshift/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noisePng, tinyPng } from './support/dev-chain.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const isWebp = (bytes: Buffer) => bytes.subarray(0, 4).toString() === 'RIFF' && bytes.subarray(8, 12).toString() === 'WEBP';

/** Runs a TypeScript file of the repository the way the README says, with the SDK from source. */
function runScript(path: string, args: string[], env: Record<string, string>) {
  const run = spawnSync(process.execPath, ['--conditions=@fileshift/source', '--import', 'tsx', join(root, path), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe('the README examples and the demo run against the live service', () => {
  let service: LiveService;
  let dir: string;
  let photo: string;

  beforeAll(async () => {
    service = await startLiveService();
    dir = mkdtempSync(join(tmpdir(), 'sdk-examples-'));
    photo = join(dir, 'photo.png');
    writeFileSync(photo, tinyPng());
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What the paying examples read: the service, and a funded dev-chain payer allowed to pay its test token. */
  const payingEnv = () => ({
    FILESHIFT_URL: service.baseUrl,
    PAYER_KEY: service.devChain.payerPrivateKey,
    PAY_NETWORK: service.devChain.network,
    PAY_ASSET: service.devChain.usdc,
  });

  it('examples/convert-a-file.ts detects, converts, pays and saves', () => {
    const output = runScript('libs/sdk/examples/convert-a-file.ts', [photo, 'webp'], payingEnv());
    expect(output).toMatch(/detected: PNG image.*\(paid in 0x[0-9a-f]{64}\)/);
    expect(output).toMatch(/job job_\S+: done/);
    expect(output).toContain('2 payments');
    expect(isWebp(readFileSync(`${photo}.webp`))).toBe(true);
  });

  it('examples/resume-a-conversion.ts resumes the job a too-short wait left, paying only the result', () => {
    // Large enough that its conversion is still running when the too-short wait looks (a tiny image's job may be done).
    const noise = join(dir, 'noise.png');
    writeFileSync(noise, noisePng(400, 400));
    const output = runScript('libs/sdk/examples/resume-a-conversion.ts', [noise, 'gif'], payingEnv());
    const refusedJob = /Job (job_\S+) waits on the server\./.exec(output)?.[1];
    expect(refusedJob, output).toBeDefined();
    expect(output).toContain(`resumed job ${refusedJob}: 1 more payment`);
    expect(readFileSync(`${noise}.gif`).subarray(0, 4).toString()).toBe('GIF8');
  });

  it('examples/key-api.ts lists, uploads, converts and downloads with an API key', () => {
    const output = runScript('libs/sdk/examples/key-api.ts', [photo, 'jpg'], { FILESHIFT_URL: service.baseUrl, FILESHIFT_API_KEY: service.createApiKey('examples') });
    expect(output).toMatch(/png converts to: .*webp/);
    expect(readFileSync(`${photo}.jpg`).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('npm run demo prints each step with prices and transactions and saves the result', () => {
    // The root script, as a user runs it after `npm start`.
    const run = spawnSync('npm', ['run', '--silent', 'demo'], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, FILESHIFT_URL: service.baseUrl, DEMO_OUTPUT_DIR: join(dir, 'demo') },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const output = run.stdout;
    expect(output).toContain('detect sample.png (0.002 USDC)');
    expect(output).toContain('convert sample.png to webp (job fee 0.002 USDC, result 0.02–0.04 USDC by size)');
    // Three payments, and the delivery record naming the result's.
    const transactions = output.match(/tx 0x[0-9a-f]{64}/g)!;
    expect(transactions).toHaveLength(4);
    expect(transactions[3]).toBe(transactions[2]);
    expect(output).toMatch(/delivery record, signed by did:web:127\.0\.0\.1%3A\d+#[\w-]+ and verified: png sha256 [0-9a-f]{12}… → webp sha256 [0-9a-f]{12}… \(the saved file's\), by sharp [^,]+, for tx 0x/);
    expect(output).toContain('result price 0.020000 USDC');
    expect(output).toContain('0.024 USDC spent by this demo');
    // Once on each network.
    expect(output).toMatch(/paid on Solana: transaction [1-9A-HJ-NP-Za-km-z]{64,88}\n/);
    expect(output).toContain('0.002 USDC spent by this demo on solana:');
    expect(isWebp(readFileSync(join(dir, 'demo', 'sample.webp')))).toBe(true);
  });
});

describe('the README', () => {
  it('shows the example files exactly as they are', () => {
    const readme = readFileSync(join(root, 'libs/sdk/README.md'), 'utf8');
    const blocks = [...readme.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g)];
    expect(blocks.map((block) => block[1])).toEqual(['examples/convert-a-file.ts', 'examples/resume-a-conversion.ts', 'examples/key-api.ts']);
    for (const [, file, code] of blocks) expect(code, file).toBe(readFileSync(join(root, 'libs/sdk', file!), 'utf8'));
  });
});
