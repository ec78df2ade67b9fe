import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, stop } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_DESCRIPTORS } from '../src/engines/engines.js';
import { createEngineRuntimes, probeEngines } from '../src/engines/worker-engines.js';
import { ConversionGraph } from '../src/platform/conversion-graph.js';
import { optionCatalogue } from '../src/platform/conversion-options.js';
import type { EngineRuntime } from '../src/platform/engine-runtime.js';
import { TOY_DESCRIPTOR } from './fixtures/toy-engine/toy.descriptor.js';
import { TOY_ENGINE } from './fixtures/toy-engine/toy.engine.js';
import { testContext } from './support/test-context.js';

/**
 * An engine added as engines are (fixtures/toy-engine: a descriptor, a runtime, a host task), registered through
 * lists of the test's own: nothing of src/ knows it, and it converts through the platform's generic Node host.
 */
const LIB = fileURLToPath(new URL('..', import.meta.url));
// The host bundle sits under the package, as dist/node-host/node-host.mjs does: its sandbox binds sharp from node_modules.
const bundleDir = mkdtempSync(join(LIB, 'dist', 'toy-host-'));
const dir = mkdtempSync(join(tmpdir(), 'fileshift-toy-engine-'));
let toy: EngineRuntime;
afterAll(async () => {
  // esbuild's service is a child process: it must not outlive the test.
  await stop();
  await toy?.stop?.();
  rmSync(bundleDir, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  const bundle = join(bundleDir, 'toy-host.mjs');
  await build({ entryPoints: [join(LIB, 'test/fixtures/toy-engine/toy-host.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', external: ['sharp'], outfile: bundle, logLevel: 'warning' });
  [toy] = await createEngineRuntimes({ engines: [TOY_ENGINE], nodeHost: { bundle, size: 1 } });
});

describe('an engine of its own folder', () => {
  it('is planned from its descriptor, with the option it declares in the catalogue', () => {
    expect(new ConversionGraph([TOY_DESCRIPTOR]).plan('txt', 'md')?.steps.map((step) => step.engine)).toEqual(['toy']);
    const catalogue = optionCatalogue([...ENGINE_DESCRIPTORS, TOY_DESCRIPTOR]);
    expect(catalogue.names.at(-1)).toBe('shout');
    expect(catalogue.validate({ shout: true }, ['shout'])).toEqual({ ok: true, options: { shout: true } });
    expect(catalogue.validate({ shout: 'yes' }, ['shout'])).toMatchObject({ ok: false, problems: [{ option: 'shout', message: expect.stringContaining('(only true)') }] });
    expect(() => optionCatalogue([{ ...TOY_DESCRIPTOR, options: {} }])).toThrow(/no engine declares: toy: shout/);
  });

  it('is probed and converts through the generic Node host, its task run in the host', async () => {
    const probed = await probeEngines([toy]);
    expect(probed.missing).toEqual([]);
    expect(probed.versions).toEqual({ toy: 'toy 1.0' });
    const workDir = join(dir, 'job');
    mkdirSync(join(workDir, 'out'), { recursive: true });
    writeFileSync(join(workDir, 'input.txt'), 'hello\nworld\n');
    const { files } = await toy.convert({ inputPath: join(workDir, 'input.txt'), outputDir: join(workDir, 'out'), from: 'txt', to: 'md', options: { shout: true } }, testContext(toy, workDir));
    expect(files).toEqual([join(workDir, 'out', 'output.md')]);
    expect(readFileSync(files[0]!, 'utf8')).toBe('> HELLO\n> WORLD\n');
  });
});
