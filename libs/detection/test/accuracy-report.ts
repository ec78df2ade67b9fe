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
}

const zeroes = (): Record<NamingMode, number> => ({ 'right extension': 0, 'no extension': 0, 'wrong extension': 0 });

/** Top-1 detection of every sample under every naming mode, with what each wrong answer was. */
export function scoreCorpus(corpus: CorpusSample[]): AccuracyReport {
  const report: AccuracyReport = { samples: corpus.length, hits: new Map(), counts: new Map(), totals: zeroes(), ties: zeroes(), confusions: new Map(), misses: [] };
  for (const sample of corpus) {
    const row = report.hits.get(sample.format) ?? zeroes();
    report.counts.set(sample.format, (report.counts.get(sample.format) ?? 0) + 1);
    for (const mode of NAMING_MODES) {
      const filename = nameFor(sample, mode);
      const result = detectFormat({ filename, sizeBytes: sample.size, header: sample.header });
      const got = result.best?.format.id ?? 'nothing';
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
  const figure = (mode: NamingMode) => `${mode}: ${(accuracy(report, mode) * 100).toFixed(1)} % (${(accuracyWithTies(report, mode) * 100).toFixed(1)} % counting ties)`;
  return `${report.samples} samples of ${report.hits.size} formats, top-1 | ${NAMING_MODES.map(figure).join(' | ')}`;
}

const total = (row: Record<NamingMode, number>) => NAMING_MODES.reduce((sum, mode) => sum + row[mode], 0);
