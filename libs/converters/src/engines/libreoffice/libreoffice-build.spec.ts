import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { expectDocument, pgrep } from '../../../testing/document-checks.js';
import { SAMPLE_HEADING, sampleDocx } from '../../../testing/office-samples.js';

const packageDir = fileURLToPath(new URL('../../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fileshift-lo-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the built package (dist/)', () => {
  it('ships the UNO bridge beside the compiled runtime, which the worker entry makes, and it converts', { timeout: 120_000 }, async () => {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: packageDir, stdio: ['ignore', 'ignore', 'inherit'] });
    expect(existsSync(join(packageDir, 'dist/engines/libreoffice/uno-bridge.py'))).toBe(true);

    const input = join(dir, 'in.docx');
    writeFileSync(input, sampleDocx());
    mkdirSync(join(dir, 'out'));
    // A plain Node process, no TypeScript loader, no source condition: what a worker built from dist/ runs.
    const script = `
      import { createEngineRuntimes } from ${JSON.stringify(join(packageDir, 'dist/worker.js'))};
      import { UNO_BRIDGE_SCRIPT } from ${JSON.stringify(join(packageDir, 'dist/engines/libreoffice/uno-bridge-client.js'))};
      const runtimes = await createEngineRuntimes({ workRoot: ${JSON.stringify(dir)}, libreoffice: { size: 1, log: () => {} } });
      const runtime = runtimes.find((each) => each.descriptor.id === 'libreoffice');
      try {
        const { files } = await runtime.convert({ inputPath: ${JSON.stringify(input)}, outputDir: ${JSON.stringify(join(dir, 'out'))}, from: 'docx', to: 'pdf', options: {} },
          { signal: new AbortController().signal, limits: runtime.descriptor.limits, workDir: ${JSON.stringify(dir)} });
        console.log(JSON.stringify({ files, bridge: UNO_BRIDGE_SCRIPT }));
      } finally {
        await Promise.all(runtimes.map((each) => each.stop?.()));
      }
    `;
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, timeout: 90_000 }, (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out))),
    );
    const { files, bridge } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { files: string[]; bridge: string };
    expect(bridge).toBe(join(packageDir, 'dist/engines/libreoffice/uno-bridge.py'));
    expectDocument(files[0]!, 'pdf', SAMPLE_HEADING);
    expect(pgrep(dir)).toEqual([]);
  });
});
