import { describe, expect, it } from 'vitest';
import { engineDescriptor } from '../src/engine-descriptors.js';
import { createEngineRuntimes, probeEngines } from '../src/engine-runtimes.js';

describe('createEngineRuntimes', () => {
  it('pairs every runtime with its published descriptor, the PDF engines included', () => {
    const runtimes = createEngineRuntimes();
    expect(runtimes.map((runtime) => runtime.descriptor.id)).toEqual(expect.arrayContaining(['poppler', 'ghostscript', 'img2pdf']));
    for (const runtime of runtimes) expect(engineDescriptor(runtime.descriptor.id)).toBe(runtime.descriptor);
  });

  it('finds the PDF engines installed on this machine (the Debian packages of tools/engines/ensure-debian-packages.sh)', async () => {
    const probed = await probeEngines(createEngineRuntimes().filter((runtime) => ['poppler', 'ghostscript', 'img2pdf'].includes(runtime.descriptor.id)));
    expect(probed.missing).toEqual([]);
    expect(Object.keys(probed.versions).sort()).toEqual(['ghostscript', 'img2pdf', 'poppler']);
  });
});
