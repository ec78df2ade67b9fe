/**
 * Detections per second of the library on 200-byte headers (one core), beside `file-type` on the
 * same inputs measured in the same run. Target: ≥ 50,000/s.
 *   npx tsx bench/detection-speed.ts
 */
import { detectFormat } from '@fileshift/detection';
import { fileTypeFromBuffer } from 'file-type';
import { loadCorpus } from '../libs/detection/test/corpus-samples.js';

const corpus = loadCorpus();
const inputs = corpus.map((s) => ({ filename: s.name, sizeBytes: s.size, header: s.header }));

function rate(run: () => void, seconds = 2): number {
  const until = performance.now() + seconds * 1000;
  let count = 0;
  while (performance.now() < until) {
    run();
    count += inputs.length;
  }
  return count / seconds;
}
async function asyncRate(run: () => Promise<void>, seconds = 2): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let count = 0;
  while (performance.now() < until) {
    await run();
    count += inputs.length;
  }
  return count / seconds;
}

rate(() => inputs.forEach((i) => detectFormat(i)), 0.5);
const ours = rate(() => inputs.forEach((i) => detectFormat(i)));
const baseline = await asyncRate(async () => {
  for (const i of inputs) await fileTypeFromBuffer(i.header);
});
console.log(`detection speed, ${inputs.length} distinct 200-byte headers, one core`);
console.log(`  fileshift detectFormat   ${Math.round(ours).toLocaleString('en')} /s   (target ≥ 50,000 /s)`);
console.log(`  file-type (baseline)     ${Math.round(baseline).toLocaleString('en')} /s`);
console.log(`  ratio                    ${(ours / baseline).toFixed(2)}×`);
if (ours < 50_000) process.exitCode = 1;
