import { readFileSync } from 'node:fs';

// Subtitle cues read back from the text of SubRip, WebVTT and ASS files by their own syntax (not the engine's).

export interface Cue {
  startMs: number;
  endMs: number;
  /** The words shown, markup dropped (<i>, {\i1}), lines joined by a space. */
  text: string;
}

const millis = (h: string, m: string, s: string, fraction: string) => ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(fraction.padEnd(3, '0').slice(0, 3));
const plain = (text: string) => text.replace(/<[^>]+>|\{[^}]*\}/g, '').replace(/\\N/g, ' ').replace(/\s+/g, ' ').trim();

/** The cues of a srt, vtt or ass file, in file order. */
export function readCues(path: string, format: string): Cue[] {
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  if (format === 'ass') {
    return [...text.matchAll(/^Dialogue:\s*[^,]*,(\d+):(\d\d):(\d\d)\.(\d+),(\d+):(\d\d):(\d\d)\.(\d+),(?:[^,]*,){6}(.*)$/gm)].map((m) => ({
      startMs: millis(m[1]!, m[2]!, m[3]!, m[4]!),
      endMs: millis(m[5]!, m[6]!, m[7]!, m[8]!),
      text: plain(m[9]!),
    }));
  }
  const cues: Cue[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const lines = block.split(/\r?\n/);
    const timing = lines.findIndex((line) => line.includes('-->'));
    if (timing < 0) continue;
    const m = /(?:(\d+):)?(\d\d):(\d\d)[,.](\d+)\s*-->\s*(?:(\d+):)?(\d\d):(\d\d)[,.](\d+)/.exec(lines[timing]!);
    if (!m) continue;
    cues.push({ startMs: millis(m[1] ?? '0', m[2]!, m[3]!, m[4]!), endMs: millis(m[5] ?? '0', m[6]!, m[7]!, m[8]!), text: plain(lines.slice(timing + 1).join(' ')) });
  }
  return cues;
}
