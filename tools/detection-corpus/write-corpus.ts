/** Chooses the samples to commit (capped per format, spread over producers) and writes them with manifest.json. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getFormat } from '@fileshift/formats';
import { collected, KEEP_BYTES, type CollectedSample } from './corpus-context.js';

const OUT = fileURLToPath(new URL('../../libs/detection/test/corpus/', import.meta.url));
/** So that formats with many producers (pdf, html, json) do not swamp the per-format figures. */
const MAX_PER_FORMAT = 16;

/** debian:/usr/share/... producers form one family, so that tools and real files alternate. */
const familyOf = (producer: string) => producer.split(':')[0]!;

/** Takes samples round-robin over producer families, in production order within each family. */
function chooseFor(samples: CollectedSample[]): CollectedSample[] {
  const families = new Map<string, CollectedSample[]>();
  for (const sample of samples) families.set(familyOf(sample.producer), [...(families.get(familyOf(sample.producer)) ?? []), sample]);
  const queues = [...families.keys()].sort().map((key) => families.get(key)!);
  const chosen: CollectedSample[] = [];
  for (let round = 0; chosen.length < MAX_PER_FORMAT && queues.some((queue) => round < queue.length); round++) {
    for (const queue of queues) if (round < queue.length && chosen.length < MAX_PER_FORMAT) chosen.push(queue[round]!);
  }
  return chosen;
}

/** A file name unique inside its format directory: clashing names get the producer family and a counter. */
function uniqueName(used: Set<string>, sample: CollectedSample): string {
  let name = sample.name;
  for (let n = 2; used.has(name); n++) name = `${familyOf(sample.producer)}-${n}-${sample.name}`;
  used.add(name);
  return name;
}

export function writeCorpus(): { count: number; formats: Set<string>; byProducer: Record<string, number> } {
  const byFormat = new Map<string, CollectedSample[]>();
  for (const sample of collected) {
    if (!getFormat(sample.format)) throw new Error(`not a catalogue format: ${sample.format} (${sample.name})`);
    byFormat.set(sample.format, [...(byFormat.get(sample.format) ?? []), sample]);
  }
  rmSync(OUT, { recursive: true, force: true });
  const manifest: Array<{ format: string; file: string; size: number; producer: string }> = [];
  const byProducer: Record<string, number> = {};
  for (const format of [...byFormat.keys()].sort()) {
    const used = new Set<string>();
    mkdirSync(join(OUT, format), { recursive: true });
    for (const sample of chooseFor(byFormat.get(format)!)) {
      const name = uniqueName(used, sample);
      writeFileSync(join(OUT, format, name), sample.head);
      manifest.push({ format, file: `${format}/${name}`, size: sample.size, producer: sample.producer });
      byProducer[familyOf(sample.producer)] = (byProducer[familyOf(sample.producer)] ?? 0) + 1;
    }
  }
  manifest.sort((a, b) => a.file.localeCompare(b.file));
  writeFileSync(join(OUT, 'manifest.json'), `${JSON.stringify({ keepBytes: KEEP_BYTES, samples: manifest }, null, 1)}\n`);
  return { count: manifest.length, formats: new Set(manifest.map((s) => s.format)), byProducer };
}
