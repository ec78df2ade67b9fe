/** Audio in every container and codec ffmpeg writes here, including audio-only Matroska (.mka). */
import { join } from 'node:path';
import { attempt, keep, run, work } from './corpus-context.js';

const CODECS: Array<[format: string, ext: string, args: string[]]> = [
  ['mp3', 'mp3', ['-c:a', 'libmp3lame']],
  ['wav', 'wav', []],
  ['ogg', 'ogg', ['-c:a', 'libvorbis']],
  ['opus', 'opus', ['-c:a', 'libopus']],
  ['flac', 'flac', []],
  ['m4a', 'm4a', ['-c:a', 'aac']],
  ['aac', 'aac', ['-c:a', 'aac', '-f', 'adts']],
  ['aiff', 'aiff', []],
  ['au', 'au', []],
  ['ac3', 'ac3', []],
  ['wv', 'wv', []],
  ['caf', 'caf', ['-c:a', 'alac']],
  ['wma', 'wma', ['-c:a', 'wmav2']],
  // Matroska audio is catalogued under mkv; real .mka files differ from video ones in their tracks.
  ['mkv', 'mka', ['-c:a', 'libvorbis']],
  ['mkv', 'mka', ['-c:a', 'flac']],
  ['m4a', 'm4b', ['-c:a', 'aac', '-movflags', '+faststart']],
  ['wav', 'wave', ['-c:a', 'pcm_s24le', '-rf64', 'auto']],
  ['ogg', 'oga', ['-c:a', 'flac']],
  ['amr', 'amr', ['-c:a', 'libopencore_amrnb', '-ar', '8000', '-ac', '1']],
  ['mp3', 'mp3', ['-c:a', 'libmp3lame', '-id3v2_version', '0', '-write_xing', '0']],
];

const TONES: Array<[source: string, rate: string]> = [
  ['sine=frequency=440:duration=1', '44100'],
  ['sine=frequency=1000:duration=2', '48000'],
  ['anoisesrc=d=1:c=pink:s=42', '22050'],
];

export function ffmpegAudio(): void {
  for (const [index, [source, rate]] of TONES.entries()) {
    for (const [variant, [format, ext, args]] of CODECS.entries()) {
      attempt(`ffmpeg ${format} (${ext})`, () => {
        const out = `sound-${index}-${variant}.${ext}`;
        const sampleRate = format === 'opus' || ext === 'mka' ? '48000' : rate;
        run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-ar', sampleRate, ...args, out]);
        keep(format, join(work, out), 'ffmpeg');
      });
    }
  }
  attempt('ffmpeg mp3 with ID3', () => {
    run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', TONES[0]![0], '-metadata', 'title=Test tone', '-c:a', 'libmp3lame', 'tagged.mp3']);
    keep('mp3', join(work, 'tagged.mp3'), 'ffmpeg');
  });
}
