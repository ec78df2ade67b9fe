import { describe, expect, it } from 'vitest';
import { accuracy, accuracyWithTies, ceiling, confusionTable, perFormatTable, scoreCorpus, summaryLine } from './accuracy-report.js';
import { loadCorpus } from './corpus-samples.js';

describe('detection accuracy on the fixture corpus (many producers, real Debian files)', () => {
  const corpus = loadCorpus();
  const report = scoreCorpus(corpus);

  it('covers at least 130 formats with several samples each', () => {
    expect(report.hits.size).toBeGreaterThanOrEqual(130);
    expect(Math.min(...report.counts.values())).toBeGreaterThanOrEqual(2);
  });

  it('is right ≥ 99 % with the right extension; without or with a wrong one, ≥ 92 % at the top and ≥ 97 % counting the ties 200 bytes cannot break', () => {
    console.log(`${perFormatTable(report)}\n\n${confusionTable(report)}\n\n${summaryLine(report)}`);
    expect(accuracy(report, 'right extension')).toBeGreaterThanOrEqual(0.99);
    for (const mode of ['no extension', 'wrong extension'] as const) {
      expect(accuracy(report, mode), mode).toBeGreaterThanOrEqual(0.92);
      expect(accuracyWithTies(report, mode), mode).toBeGreaterThanOrEqual(0.97);
      // Within 2.5 points of the best any reader of these 200 bytes could do without the name.
      expect(accuracy(report, mode), mode).toBeGreaterThanOrEqual(ceiling(report, mode) - 0.025);
    }
  });
});
