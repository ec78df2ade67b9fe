import { describe, expect, it } from 'vitest';
import { accuracy, confusionTable, perFormatTable, scoreCorpus, summaryLine } from './accuracy-report.js';
import { loadCorpus } from './corpus-samples.js';

describe('detection accuracy on the fixture corpus', () => {
  const corpus = loadCorpus();
  const report = scoreCorpus(corpus);

  it('covers at least 80 formats with several samples each', () => {
    expect(report.hits.size).toBeGreaterThanOrEqual(80);
    expect(Math.min(...report.counts.values())).toBeGreaterThanOrEqual(2);
  });

  it('is right ≥ 97 % with the right extension and ≥ 95 % with a missing or wrong one', () => {
    console.log(`${perFormatTable(report)}\n\n${confusionTable(report)}\n\n${summaryLine(report)}`);
    expect(accuracy(report, 'right extension')).toBeGreaterThanOrEqual(0.97);
    expect(accuracy(report, 'no extension')).toBeGreaterThanOrEqual(0.95);
    expect(accuracy(report, 'wrong extension')).toBeGreaterThanOrEqual(0.95);
  });
});
