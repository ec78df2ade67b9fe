import { describe, expect, it } from 'vitest';
import { detectFormat } from '../src/index.js';
import { type CorpusSample, loadCorpus, renamed } from './corpus-samples.js';

type Mode = 'right extension' | 'no extension' | 'wrong extension';
const MODES: Mode[] = ['right extension', 'no extension', 'wrong extension'];

function nameFor(sample: CorpusSample, mode: Mode): string {
  if (mode === 'right extension') return sample.name;
  return renamed(sample.name, mode === 'no extension' ? 'none' : 'wrong', sample.format);
}

describe('detection accuracy on the fixture corpus', () => {
  const corpus = loadCorpus();
  const hits = new Map<string, Record<Mode, number>>();
  const totals: Record<Mode, number> = { 'right extension': 0, 'no extension': 0, 'wrong extension': 0 };
  const misses: string[] = [];
  for (const sample of corpus) {
    const row = hits.get(sample.format) ?? { 'right extension': 0, 'no extension': 0, 'wrong extension': 0 };
    for (const mode of MODES) {
      const filename = nameFor(sample, mode);
      const got = detectFormat({ filename, sizeBytes: sample.size, header: sample.header }).best?.format.id;
      if (got === sample.format) {
        row[mode]++;
        totals[mode]++;
      } else misses.push(`${sample.file} as "${filename}" → ${got ?? 'nothing'}`);
    }
    hits.set(sample.format, row);
  }
  const accuracy = (mode: Mode) => totals[mode] / corpus.length;

  it('covers at least 80 formats with several samples each', () => {
    expect(hits.size).toBeGreaterThanOrEqual(80);
    const counts = [...hits.keys()].map((format) => corpus.filter((s) => s.format === format).length);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(2);
  });

  it('is right ≥ 97 % with the right extension and ≥ 90 % with a missing or wrong one', () => {
    const table = [...hits.entries()].map(([format, row]) => {
      const n = corpus.filter((s) => s.format === format).length;
      return `${format.padEnd(8)} n=${String(n).padStart(2)}  ${MODES.map((m) => `${String(Math.round((row[m] / n) * 100)).padStart(3)}%`).join('  ')}`;
    });
    console.log(`format   samples right  none wrong\n${table.join('\n')}`);
    console.log(MODES.map((mode) => `${mode}: ${(accuracy(mode) * 100).toFixed(1)} %`).join(' | '));
    if (misses.length) console.log(`misses:\n  ${misses.join('\n  ')}`);
    expect(accuracy('right extension')).toBeGreaterThanOrEqual(0.97);
    expect(accuracy('no extension')).toBeGreaterThanOrEqual(0.9);
    expect(accuracy('wrong extension')).toBeGreaterThanOrEqual(0.9);
  });
});
