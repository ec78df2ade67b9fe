import { describe, expect, it } from 'vitest';
import type { WorkerCapabilities } from './capability-board.js';
import { liveConversions } from './live-conversions.service.js';

const ALL_ENGINES = ['sharp', 'imagemagick', 'libreoffice', 'poppler', 'pandoc', 'ffmpeg-audio'];

function worker(workerId: string, queues: WorkerCapabilities['queues'], engines = ALL_ENGINES): WorkerCapabilities {
  return { workerId, host: 'host', pid: 1, engines, versions: {}, queues, seenAt: Date.now() };
}

describe('liveConversions', () => {
  it('offers no conversion of a class no worker serves, though a worker has its engines installed', () => {
    const live = liveConversions([worker('images-only', ['images'])]);
    expect(live.graph.targetsOf('png')).toContain('webp');
    expect(live.graph.targetsOf('pdf')).not.toContain('txt');
    expect(live.graph.targetsOf('docx')).toEqual([]);
    expect(live.graph.engines()).not.toContain('libreoffice');
    expect(live.plans('docx', 'pdf')).toEqual([]);
  });

  it("merges the workers' classes: an images worker and a documents worker together offer both", () => {
    const live = liveConversions([worker('images-only', ['images']), worker('documents-only', ['documents'])]);
    expect(live.graph.targetsOf('png')).toContain('webp');
    expect(live.graph.targetsOf('pdf')).toContain('txt');
    expect(live.plans('docx', 'pdf')).not.toEqual([]);
    expect(live.graph.targetsOf('wav')).toEqual([]);
  });

  it('a worker of every class offers every engine it has', () => {
    const live = liveConversions([worker('all', ['documents', 'media', 'images'])]);
    expect([...live.graph.engines()].sort()).toEqual([...ALL_ENGINES].sort());
  });
});
