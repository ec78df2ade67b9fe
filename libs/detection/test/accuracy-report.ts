import { detectFormat } from '../src/index.js';
import { type CorpusSample, renamed } from './corpus-samples.js';

export type NamingMode = 'right extension' | 'no extension' | 'wrong extension';
export const NAMING_MODES: NamingMode[] = ['right extension', 'no extension', 'wrong extension'];

/** The name a sample is shown under: its own, without an extension, or with another format's extension. */
export function nameFor(sample: CorpusSample, mode: NamingMode): string {
  if (mode === 'right extension') return sample.name;
  return renamed(sample.name, mode === 'no extension' ? 'none' : 'wrong', sample.format);
}

export interface AccuracyReport {
  samples: number;
  /** format → mode → samples detected right */
  hits: Map<string, Record<NamingMode, number>>;
  counts: Map<string, number>;
  totals: Record<NamingMode, number>;
  /** Misses whose right format the detector ranked among the formats the bytes fit equally (a tie only a name breaks). */
  ties: Record<NamingMode, number>;
  /** `${actual} → ${detected}` → count, for the wrong answers of every mode */
  confusions: Map<string, Record<NamingMode, number>>;
  misses: string[];
  /** Per mode: tie set (the pick and its tied rivals) → the right formats of the samples that landed in it. */
  tieSets: Record<NamingMode, Map<string, Map<string, number>>>;
}

const zeroes = (): Record<NamingMode, number> => ({ 'right extension': 0, 'no extension': 0, 'wrong extension': 0 });

/** Top-1 detection of every sample under every naming mode, with what each wrong answer was. */
export function scoreCorpus(corpus: CorpusSample[]): AccuracyReport {
  const report: AccuracyReport = { samples: corpus.length, hits: new Map(), counts: new Map(), totals: zeroes(), ties: zeroes(), confusions: new Map(), misses: [], tieSets: { 'right extension': new Map(), 'no extension': new Map(), 'wrong extension': new Map() } };
  for (const sample of corpus) {
    const row = report.hits.get(sample.format) ?? zeroes();
    report.counts.set(sample.format, (report.counts.get(sample.format) ?? 0) + 1);
    for (const mode of NAMING_MODES) {
      const filename = nameFor(sample, mode);
      const result = detectFormat({ filename, sizeBytes: sample.size, header: sample.header });
      const got = result.best?.format.id ?? 'nothing';
      const tied = result.candidates.filter((candidate) => candidate === result.best || candidate.tie).map((candidate) => candidate.format.id);
      if (tied.length > 1 && tied.includes(sample.format)) {
        const key = tied.sort().join('/');
        const set = report.tieSets[mode].get(key) ?? new Map<string, number>();
        set.set(sample.format, (set.get(sample.format) ?? 0) + 1);
        report.tieSets[mode].set(key, set);
      }
      if (got === sample.format) {
        row[mode]++;
        report.totals[mode]++;
        continue;
      }
      if (result.candidates.some((candidate) => candidate.format.id === sample.format && candidate.tie)) report.ties[mode]++;
      const pair = `${sample.format} → ${got}`;
      const confusion = report.confusions.get(pair) ?? zeroes();
      confusion[mode]++;
      report.confusions.set(pair, confusion);
      report.misses.push(`${sample.file} (${sample.producer}) as "${filename}" → ${got}`);
    }
    report.hits.set(sample.format, row);
  }
  return report;
}

export const accuracy = (report: AccuracyReport, mode: NamingMode) => report.totals[mode] / report.samples;
/** Right at the top, or ranked within a tie the first 200 bytes cannot break (the name or MIME type then decides). */
export const accuracyWithTies = (report: AccuracyReport, mode: NamingMode) => (report.totals[mode] + report.ties[mode]) / report.samples;

/**
 * The best top-1 any reader of these bytes could reach without a (truthful) name: within each tie set it can
 * only name one format for all of them, at best the most frequent; every other sample of the set is lost.
 */
export function ceiling(report: AccuracyReport, mode: NamingMode): number {
  if (mode === 'right extension') return 1; // the name breaks every tie
  let lost = 0;
  for (const set of report.tieSets[mode].values()) {
    const counts = [...set.values()];
    lost += counts.reduce((sum, count) => sum + count, 0) - Math.max(...counts);
  }
  return 1 - lost / report.samples;
}

const percent = (part: number, whole: number) => `${String(Math.round((part / whole) * 100)).padStart(3)}%`;

/** Per-format accuracy, one line per format, worst first. */
export function perFormatTable(report: AccuracyReport): string {
  const rows = [...report.hits.entries()].map(([format, row]) => {
    const n = report.counts.get(format)!;
    const worst = Math.min(...NAMING_MODES.map((mode) => row[mode] / n));
    return { worst, format, line: `${format.padEnd(8)} ${String(n).padStart(3)}  ${NAMING_MODES.map((mode) => percent(row[mode], n)).join('  ')}` };
  });
  rows.sort((a, b) => a.worst - b.worst || a.format.localeCompare(b.format));
  return [`format     n  right  none wrong`, ...rows.map((row) => row.line)].join('\n');
}

/** The confusion table's off-diagonal cells: each actual → detected pair that happened, most frequent first. */
export function confusionTable(report: AccuracyReport): string {
  const rows = [...report.confusions.entries()].sort(([, a], [, b]) => total(b) - total(a));
  if (rows.length === 0) return 'no confusions';
  return [`actual → detected        right  none wrong`, ...rows.map(([pair, row]) => `${pair.padEnd(24)} ${NAMING_MODES.map((mode) => String(row[mode]).padStart(5)).join(' ')}`)].join('\n');
}

export function summaryLine(report: AccuracyReport): string {
  const figure = (mode: NamingMode) =>
    `${mode}: ${(accuracy(report, mode) * 100).toFixed(1)} % (${(accuracyWithTies(report, mode) * 100).toFixed(1)} % counting ties` +
    (mode === 'right extension' ? ')' : `; ceiling ${(ceiling(report, mode) * 100).toFixed(1)} %)`);
  return `${report.samples} samples of ${report.hits.size} formats, top-1 | ${NAMING_MODES.map(figure).join(' | ')}`;
}

const total = (row: Record<NamingMode, number>) => NAMING_MODES.reduce((sum, mode) => sum + row[mode], 0);
