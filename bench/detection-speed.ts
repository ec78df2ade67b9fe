/**
 * Detections per second of the library on 200-byte headers (one core), beside `file-type` on the
 * same inputs measured in the same run. Binary headers (magic numbers, containers) and text headers
 * (markup, data, source code: the sniffers' regular expressions) are timed apart.
 * Target: ≥ 100,000 /s on binary headers.
 *   node --conditions=@fileshift/source --import tsx bench/detection-speed.ts
 */
import { detectFormat, type DetectionInput } from '@fileshift/detection';
import { fileTypeFromBuffer } from 'file-type';
import { loadCorpus } from '../libs/detection/test/corpus-samples.js';

const BINARY_TARGET = 100_000;
const corpus = loadCorpus();
const inputs: DetectionInput[] = corpus.map((s) => ({ filename: s.name, sizeBytes: s.size, header: s.header }));
const isBinary = (header: Uint8Array) => header.some((byte) => byte < 0x09);
const binary = inputs.filter((input) => isBinary(input.header));
const text = inputs.filter((input) => !isBinary(input.header));

function rate(batch: DetectionInput[], seconds = 2): number {
  const until = performance.now() + seconds * 1000;
  let count = 0;
  while (performance.now() < until) {
    for (const input of batch) detectFormat(input);
    count += batch.length;
  }
  return count / seconds;
}
async function fileTypeRate(batch: DetectionInput[], seconds = 2): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let count = 0;
  while (performance.now() < until) {
    for (const input of batch) await fileTypeFromBuffer(input.header);
    count += batch.length;
  }
  return count / seconds;
}

rate(inputs, 0.5);
const all = rate(inputs);
const binaryRate = rate(binary);
const textRate = rate(text);
const baseline = await fileTypeRate(inputs);
const per = (n: number) => `${Math.round(n).toLocaleString('en').padStart(9)} /s`;
console.log(`detection speed, ${inputs.length} distinct 200-byte headers (${binary.length} binary, ${text.length} text), one core`);
console.log(`  fileshift, all headers      ${per(all)}`);
console.log(`  fileshift, binary headers   ${per(binaryRate)}   (target ≥ ${BINARY_TARGET.toLocaleString('en')} /s)`);
console.log(`  fileshift, text headers     ${per(textRate)}`);
console.log(`  file-type, all (baseline)   ${per(baseline)}`);
console.log(`  ratio, all                  ${(all / baseline).toFixed(2)}×`);
if (binaryRate < BINARY_TARGET) process.exitCode = 1;
