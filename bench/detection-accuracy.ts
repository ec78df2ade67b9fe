/**
 * Detection accuracy on the fixture corpus's 200-byte headers (tools/detection-corpus):
 *  - ours under three namings (right extension, none, another format's extension), per format, with
 *    the confusion table of every wrong answer;
 *  - beside it, in the same run, libmagic (`file`, Debian) and `file-type` on the same bytes with no name.
 *   node --conditions=@fileshift/source --import tsx bench/detection-accuracy.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatsByMimeType } from '@fileshift/formats';
import { fileTypeFromBuffer } from 'file-type';
import { accuracy, accuracyWithTies, confusionTable, perFormatTable, scoreCorpus, summaryLine } from '../libs/detection/test/accuracy-report.js';
import { loadCorpus } from '../libs/detection/test/corpus-samples.js';

const corpus = loadCorpus();
const report = scoreCorpus(corpus);

const dir = mkdtempSync(join(tmpdir(), 'fileshift-bench-'));
const paths = corpus.map((sample, index) => {
  const path = join(dir, `sample-${index}`);
  writeFileSync(path, sample.header);
  return path;
});
const matches = (mime: string | undefined, format: string) => Boolean(mime && formatsByMimeType(mime).some((f) => f.id === format));
const libmagic = execFileSync('file', ['--mime-type', '-b', ...paths], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }).trim().split('\n');
let magic = 0;
let fileType = 0;
for (const [index, sample] of corpus.entries()) {
  if (matches(libmagic[index], sample.format)) magic++;
  if (matches((await fileTypeFromBuffer(sample.header))?.mime, sample.format)) fileType++;
}
rmSync(dir, { recursive: true, force: true });

const pct = (n: number) => `${((n / corpus.length) * 100).toFixed(1)} %`;
const ours = report.totals['no extension'];
console.log(`per format (top-1, % right):\n${perFormatTable(report)}\n`);
console.log(`confusions (samples detected as another format, per naming):\n${confusionTable(report)}\n`);
console.log(`detection accuracy, ${summaryLine(report)}`);
console.log('the same 200-byte headers with no name, beside the tools people use:');
console.log(`  fileshift detection  ${pct(ours)}`);
console.log(`  libmagic (file)      ${pct(magic)}`);
console.log(`  file-type alone      ${pct(fileType)}`);
const unnamed = ['no extension', 'wrong extension'] as const;
const targets = accuracy(report, 'right extension') >= 0.99 && unnamed.every((mode) => accuracy(report, mode) >= 0.92 && accuracyWithTies(report, mode) >= 0.97);
console.log(`targets (right extension ≥ 99 %; none or wrong ≥ 92 % top-1 and ≥ 97 % counting ties): ${targets ? 'met' : 'NOT met'}`);
if (!targets || !(ours > magic && ours > fileType)) process.exitCode = 1;
