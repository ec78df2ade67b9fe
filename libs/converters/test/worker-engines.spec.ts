import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGINE_DESCRIPTORS, engineDescriptor } from '../src/engines/engines.js';
import { DOCUMENT_FONTS } from '../src/platform/document-fonts.js';
import { createEngineRuntimes, probeEngines } from '../src/engines/worker-engines.js';

describe('createEngineRuntimes', () => {
  it('pairs every runtime with its published descriptor, in the registry\'s order', async () => {
    const runtimes = await createEngineRuntimes();
    expect(runtimes.map((runtime) => runtime.descriptor.id)).toEqual(ENGINE_DESCRIPTORS.map((descriptor) => descriptor.id));
    expect(runtimes.map((runtime) => runtime.descriptor.id)).toEqual(expect.arrayContaining(['poppler', 'ghostscript', 'img2pdf']));
    for (const runtime of runtimes) expect(engineDescriptor(runtime.descriptor.id)).toBe(runtime.descriptor);
  });

  it('finds the PDF engines installed on this machine (the Debian packages of tools/engines/ensure-debian-packages.sh)', async () => {
    const probed = await probeEngines((await createEngineRuntimes()).filter((runtime) => ['poppler', 'ghostscript', 'img2pdf'].includes(runtime.descriptor.id)));
    expect(probed.missing).toEqual([]);
    expect(Object.keys(probed.versions).sort()).toEqual(['ghostscript', 'img2pdf', 'poppler']);
  });

  it('npm start and the test command install the Debian packages of every engine descriptor and every document font (tools/engines/ensure-debian-packages.sh)', () => {
    const script = readFileSync(new URL('../../../tools/engines/ensure-debian-packages.sh', import.meta.url), 'utf8');
    const list = /^SERVICE_PACKAGES=\(\n([\s\S]*?)^\)/m.exec(script)?.[1] ?? '';
    const packages = list.split('\n').flatMap((line) => line.replace(/#.*/, '').trim().split(/\s+/)).filter(Boolean);
    expect(packages.length).toBeGreaterThan(5);
    for (const descriptor of ENGINE_DESCRIPTORS) {
      for (const pkg of descriptor.debianPackages) expect(packages, `${descriptor.id}: ${pkg}`).toContain(pkg);
    }
    for (const font of DOCUMENT_FONTS) expect(packages).toContain(font.debianPackage);
  });
});
