import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FORMATS } from '@fileshift/formats';

export interface CorpusSample {
  format: string;
  file: string;
  size: number;
  /** Who wrote the file: a tool (`libreoffice`, `ffmpeg`, ...) or `debian:<path>` for a file shipped by Debian. */
  producer: string;
  name: string;
  header: Uint8Array;
}

const CORPUS = fileURLToPath(new URL('./corpus/', import.meta.url));

/** The committed fixture corpus (see tools/detection-corpus/generate.ts), headers cut to 200 bytes. */
export function loadCorpus(): CorpusSample[] {
  const manifest = JSON.parse(readFileSync(`${CORPUS}manifest.json`, 'utf8')) as { samples: Array<{ format: string; file: string; size: number; producer: string }> };
  return manifest.samples.map((sample) => ({
    ...sample,
    name: sample.file.split('/').pop()!,
    header: new Uint8Array(readFileSync(`${CORPUS}${sample.file}`).subarray(0, 200)),
  }));
}

/** The file name with its extension removed, or replaced by another known format's extension. */
export function renamed(name: string, mode: 'none' | 'wrong', format: string): string {
  const base = name.includes('.') ? name.slice(0, name.indexOf('.')) : name;
  if (mode === 'none') return base;
  const others = FORMATS.filter((f) => f.id !== format);
  const other = others[(base.length * 7 + format.length * 13) % others.length]!;
  return `${base}.${other.extension}`;
}
