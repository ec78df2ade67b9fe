/**
 * Top-1 accuracy on the fixture corpus's 200-byte headers: ours, libmagic (`file`, Debian) and
 * `file-type` alone, side by side. Names carry no extension, so every tool sees only the bytes.
 *   npx tsx bench/detection-accuracy.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectFormat } from '@fileshift/detection';
import { formatsByMimeType } from '@fileshift/formats';
import { fileTypeFromBuffer } from 'file-type';
import { loadCorpus } from '../libs/detection/test/corpus-samples.js';

const corpus = loadCorpus();
const dir = mkdtempSync(join(tmpdir(), 'fileshift-bench-'));
const paths = corpus.map((sample, index) => {
  const path = join(dir, `sample-${index}`);
  writeFileSync(path, sample.header);
  return path;
});

const matches = (mime: string | undefined, format: string) => Boolean(mime && formatsByMimeType(mime).some((f) => f.id === format));

let ours = 0;
let magic = 0;
let fileType = 0;
const libmagic = execFileSync('file', ['--mime-type', '-b', ...paths], { encoding: 'utf8' }).trim().split('\n');
for (const [index, sample] of corpus.entries()) {
  if (detectFormat({ filename: `sample-${index}`, sizeBytes: sample.size, header: sample.header }).best?.format.id === sample.format) ours++;
  if (matches(libmagic[index], sample.format)) magic++;
  if (matches((await fileTypeFromBuffer(sample.header))?.mime, sample.format)) fileType++;
}
rmSync(dir, { recursive: true, force: true });
const pct = (n: number) => `${((n / corpus.length) * 100).toFixed(1)} %`;
console.log(`detection accuracy, ${corpus.length} samples of ${new Set(corpus.map((s) => s.format)).size} formats, 200-byte headers, no extension`);
console.log(`  fileshift detection  ${pct(ours)}`);
console.log(`  libmagic (file)      ${pct(magic)}`);
console.log(`  file-type alone      ${pct(fileType)}`);
if (!(ours > magic && ours > fileType)) {
  console.log('FAIL: ours is not the highest');
  process.exitCode = 1;
}
