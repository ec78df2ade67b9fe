import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => fileURLToPath(new URL(`../../../node_modules/.bin/${name}`, import.meta.url));

describe('the published package (built by the test target first)', () => {
  it('passes publint', () => {
    const run = spawnSync(bin('publint'), ['--strict'], { cwd: sdkDir, encoding: 'utf8' });
    expect(run.stdout + run.stderr).not.toMatch(/Errors?:|Warnings?:/);
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });

  it('has correct types for import and require, Node 16+ and bundlers (arethetypeswrong)', () => {
    const run = spawnSync(bin('attw'), ['--pack', '.', '--profile', 'node16', '--format', 'json'], { cwd: sdkDir, encoding: 'utf8' });
    const report = JSON.parse(run.stdout) as { analysis: { problems: Array<{ resolutionKind?: string }>; entrypoints: Record<string, unknown> } };
    // The node16 profile leaves out node10 resolution (Node 20+ reads the exports map); the JSON report still lists it.
    expect(report.analysis.problems.filter((problem) => problem.resolutionKind !== 'node10')).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints)).toEqual(expect.arrayContaining(['.', './node']));
    expect(run.status, run.stdout).toBe(0);
  });

  it('loads with require() and import()', async () => {
    const cjs = spawnSync(process.execPath, ['-e', 'const s = require("@fileshift/sdk"); const n = require("@fileshift/sdk/node"); console.log(typeof s.createClient, typeof n.fileFromPath)'], { cwd: sdkDir, encoding: 'utf8' });
    expect(cjs.stdout.trim()).toBe('function function');
    const esm = spawnSync(process.execPath, ['--input-type=module', '-e', 'const s = await import("@fileshift/sdk"); console.log(typeof s.createPayer)'], { cwd: sdkDir, encoding: 'utf8' });
    expect(esm.stdout.trim()).toBe('function');
  });

  it('main entry bundles for browsers with no Node built-in; the /node entry does not', async () => {
    const bundleForBrowsers = (entry: string) => build({ entryPoints: [`${sdkDir}/${entry}`], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' });
    const browser = await bundleForBrowsers('dist/esm/index.js');
    expect(browser.errors).toEqual([]);
    await expect(bundleForBrowsers('dist/esm/node/index.js')).rejects.toThrow(/node:fs/);
  });

  it('main entry keeps the Solana client out of its first chunk: only a payer with an svmSigner loads it', async () => {
    const bundled = await build({ entryPoints: [`${sdkDir}/dist/esm/index.js`], bundle: true, splitting: true, format: 'esm', platform: 'browser', outdir: 'out', write: false, metafile: true, logLevel: 'silent' });
    const outputs = Object.values(bundled.metafile.outputs);
    const isSolana = (path: string) => /@x402[\\/]svm|@solana[\\/]/.test(path);
    const entry = outputs.find((output) => output.entryPoint)!;
    expect(Object.keys(entry.inputs).filter(isSolana)).toEqual([]);
    expect(outputs.some((output) => Object.keys(output.inputs).some(isSolana))).toBe(true);
  });
});
