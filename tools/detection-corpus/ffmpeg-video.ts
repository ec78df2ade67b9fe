/** Video containers from ffmpeg, with several brands, codecs and the faststart (moov first) layout. */
import { join } from 'node:path';
import { attempt, keep, run, work } from './corpus-context.js';

const CONTAINERS: Array<[format: string, ext: string, args: string[]]> = [
  ['mp4', 'mp4', []],
  ['mp4', 'mp4', ['-movflags', '+faststart']],
  ['mp4', 'm4v', ['-c:v', 'mpeg4', '-brand', 'M4V ']],
  ['mp4', 'mp4', ['-c:v', 'libx265', '-tag:v', 'hvc1', '-brand', 'mp42']],
  ['mp4', 'mp4', ['-movflags', 'frag_keyframe+empty_moov']],
  ['mov', 'mov', []],
  ['mov', 'mov', ['-c:v', 'mjpeg', '-movflags', '+faststart']],
  ['mkv', 'mkv', []],
  ['mkv', 'mkv', ['-c:v', 'libvpx-vp9', '-b:v', '200k']],
  ['webm', 'webm', ['-c:v', 'libvpx', '-b:v', '200k']],
  ['webm', 'webm', ['-c:v', 'libvpx-vp9', '-b:v', '200k']],
  ['avi', 'avi', ['-c:v', 'mpeg4']],
  ['avi', 'avi', ['-c:v', 'mjpeg']],
  ['flv', 'flv', ['-c:v', 'flv1']],
  ['flv', 'flv', ['-c:v', 'libx264']],
  ['mpeg', 'mpg', ['-c:v', 'mpeg2video', '-f', 'vob']],
  ['mpeg', 'mpeg', ['-c:v', 'mpeg1video', '-f', 'mpeg']],
  ['m2ts', 'ts', ['-c:v', 'mpeg2video', '-f', 'mpegts']],
  ['m2ts', 'm2ts', ['-c:v', 'libx264', '-f', 'mpegts', '-mpegts_m2ts_mode', '1']],
  ['3gp', '3gp', ['-c:v', 'h263', '-s', '176x144']],
  ['3gp', '3g2', ['-c:v', 'h263', '-s', '176x144', '-f', '3g2']],
  ['ogv', 'ogv', ['-c:v', 'libtheora']],
  ['wmv', 'wmv', ['-c:v', 'wmv2']],
  ['wmv', 'asf', ['-c:v', 'msmpeg4']],
  ['swf', 'swf', ['-c:v', 'flv1']],
  ['h264', 'h264', ['-c:v', 'libx264', '-f', 'h264']],
];

const SOURCES = ['testsrc=duration=1:size=160x120:rate=10', 'testsrc2=duration=1:size=320x240:rate=15', 'mandelbrot=size=160x120:rate=5'];

export function ffmpegVideo(): void {
  for (const [index, source] of SOURCES.entries()) {
    for (const [variant, [format, ext, args]] of CONTAINERS.entries()) {
      attempt(`ffmpeg ${format} (${ext} #${variant})`, () => {
        const out = `clip-${index}-${variant}.${ext}`;
        run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-t', '1', '-pix_fmt', 'yuv420p', ...args, out]);
        keep(format, join(work, out), 'ffmpeg');
      });
    }
  }
}
