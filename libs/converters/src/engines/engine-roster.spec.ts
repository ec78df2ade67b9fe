import { describe, expect, it } from 'vitest';
import type { EngineAvailability, EngineRuntime } from '../platform/engine-runtime.js';
import { EngineRoster } from './engine-roster.js';

/** A runtime whose probe answers what the test says, counting its calls. */
function fakeRuntime(id: string, answers: EngineAvailability[]) {
  const runtime = {
    descriptor: { id, debianPackages: [`${id}-package`] },
    probes: 0,
    probe: async () => answers[Math.min(runtime.probes++, answers.length - 1)]!,
  };
  return runtime as typeof runtime & EngineRuntime;
}

describe('EngineRoster', () => {
  it('probes every engine first, then only those still missing, and keeps what it found', async () => {
    const steady = fakeRuntime('steady', [{ available: true, version: '1.0' }]);
    const stalled = fakeRuntime('stalled', [{ available: false, problem: 'did not answer' }, { available: true, version: '2.0' }]);
    const absent = fakeRuntime('absent', [{ available: false, problem: 'not installed' }]);
    const roster = new EngineRoster([steady, stalled, absent]);

    const first = await roster.probeMissing();
    expect(first.found.map((runtime) => runtime.descriptor.id)).toEqual(['steady']);
    expect(first.missing).toEqual([
      { id: 'stalled', problem: 'did not answer', debianPackages: ['stalled-package'] },
      { id: 'absent', problem: 'not installed', debianPackages: ['absent-package'] },
    ]);
    expect([...roster.available.keys()]).toEqual(['steady']);

    const second = await roster.probeMissing();
    expect(second.found.map((runtime) => runtime.descriptor.id)).toEqual(['stalled']);
    expect(second.missing.map((missing) => missing.id)).toEqual(['absent']);
    expect([...roster.available.keys()]).toEqual(['steady', 'stalled']);
    expect(roster.versions).toEqual({ steady: '1.0', stalled: '2.0' });

    await roster.probeMissing();
    expect([steady.probes, stalled.probes, absent.probes]).toEqual([1, 2, 3]);
  });

  it('a probe that throws counts as a missing engine, probed again next time', async () => {
    let calls = 0;
    const flaky = fakeRuntime('flaky', []);
    flaky.probe = async () => {
      if (calls++ === 0) throw new Error('sandbox hiccup');
      return { available: true };
    };
    const roster = new EngineRoster([flaky]);
    expect((await roster.probeMissing()).missing).toEqual([{ id: 'flaky', problem: 'sandbox hiccup', debianPackages: ['flaky-package'] }]);
    expect((await roster.probeMissing()).found).toEqual([flaky]);
    expect(roster.available.get('flaky')).toBe(flaky);
  });
});
