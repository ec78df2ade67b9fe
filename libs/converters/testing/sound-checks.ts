import { execFileSync } from 'node:child_process';
import { ffprobeEntries } from './media-samples.js';

// Sound read by ffmpeg's decoders (not the engine's process): its length, its loudness and its pitch.

export interface SoundFacts {
  /** The container's duration, in seconds. */
  seconds: number;
  /** Root mean square of the first sound track, in dB below full scale. */
  loudnessDb: number;
  /** Swings through zero a second over two, between the first and the last: the frequency of a tone, in Hz. */
  toneHz: number;
}

const RATE = 16_000;
const SWING = 328;

/** The first sound track of `path`, decoded to mono 16 kHz and measured. */
export function soundFacts(path: string): SoundFacts {
  const pcm = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:a:0', '-ac', '1', '-ar', String(RATE), '-f', 's16le', '-'], { maxBuffer: 256 * 1024 * 1024 });
  const samples = new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 2));
  let energy = 0;
  // A swing goes from below -1 % of full scale to above +1 % or back: a codec's faint noise in its padding is not one.
  const swings: number[] = [];
  let side = 0;
  for (let i = 0; i < samples.length; i++) {
    const sample = samples[i]!;
    energy += sample ** 2;
    const now = sample > SWING ? 1 : sample < -SWING ? -1 : 0;
    if (now !== 0 && now !== side) {
      if (side !== 0) swings.push(i);
      side = now;
    }
  }
  const rms = Math.sqrt(energy / Math.max(1, samples.length)) / 32768;
  const span = swings.length > 1 ? (swings.at(-1)! - swings[0]!) / RATE : 0;
  return {
    seconds: Number(ffprobeEntries(path, 'format=duration')[0]),
    loudnessDb: rms === 0 ? -Infinity : 20 * Math.log10(rms),
    toneHz: span > 0 ? (swings.length - 1) / 2 / span : 0,
  };
}
