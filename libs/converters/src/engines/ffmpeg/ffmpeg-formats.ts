/**
 * The demuxer ffmpeg must use for each format we read, passed with `-f`: ffmpeg never guesses the
 * container from the content, so a file that claims to be a video but is an HLS playlist, a concat list or
 * another indirection is read by the demuxer of what it claims to be, and fails there.
 */
export const DEMUXERS: Readonly<Record<string, string>> = {
  // audio
  mp3: 'mp3',
  wav: 'wav',
  ogg: 'ogg',
  opus: 'ogg',
  flac: 'flac',
  m4a: 'mov',
  aac: 'aac',
  aiff: 'aiff',
  wma: 'asf',
  ac3: 'ac3',
  amr: 'amr',
  au: 'au',
  caf: 'caf',
  wv: 'wv',
  // video
  mp4: 'mov',
  mov: 'mov',
  '3gp': 'mov',
  mkv: 'matroska',
  webm: 'matroska',
  avi: 'avi',
  ogv: 'ogg',
  flv: 'flv',
  wmv: 'asf',
  mpeg: 'mpeg',
  m2ts: 'mpegts',
  // subtitles
  srt: 'srt',
  vtt: 'webvtt',
  ass: 'ass',
};

/** The audio formats ffmpeg reads here (every one has a demuxer above and a sample in the matrix). */
export const AUDIO_READS = ['mp3', 'wav', 'ogg', 'flac', 'm4a', 'aac', 'opus', 'aiff', 'wma', 'ac3', 'amr', 'au', 'caf', 'wv'] as const;
export type AudioTarget = keyof typeof AUDIO_ENCODINGS;

/**
 * Encoder and muxer per audio target: chosen by us, never by the caller, who may only pick a bitrate from
 * the option's fixed list for lossy targets. Debian's ffmpeg has no AMR encoder: amr is read only.
 */
/** The caller's say in an audio encoding: a bitrate from the option's list, as the encoder can take it. */
interface AudioEncoding {
  bitrate?: string;
}

export const AUDIO_ENCODINGS = {
  mp3: ({ bitrate }: AudioEncoding) => ['-c:a', 'libmp3lame', ...(bitrate ? ['-b:a', bitrate] : ['-q:a', '2']), '-f', 'mp3'],
  wav: () => ['-c:a', 'pcm_s16le', '-f', 'wav'],
  ogg: ({ bitrate }: AudioEncoding) => ['-c:a', 'libvorbis', ...(bitrate ? ['-b:a', bitrate] : ['-q:a', '5']), '-f', 'ogg'],
  flac: () => ['-c:a', 'flac', '-f', 'flac'],
  m4a: ({ bitrate }: AudioEncoding) => ['-c:a', 'aac', '-b:a', bitrate ?? '192k', '-f', 'ipod'],
  aac: ({ bitrate }: AudioEncoding) => ['-c:a', 'aac', '-b:a', bitrate ?? '192k', '-f', 'adts'],
  // libopus accepts only a few rates; 48 kHz is its native one.
  opus: ({ bitrate }: AudioEncoding) => ['-c:a', 'libopus', '-b:a', bitrate ?? '128k', '-ar', '48000', '-f', 'opus'],
  aiff: () => ['-c:a', 'pcm_s16be', '-f', 'aiff'],
  // WMA 2 in ASF: what Windows Media Player and every ffmpeg-based player read.
  wma: ({ bitrate }: AudioEncoding) => ['-c:a', 'wmav2', '-b:a', bitrate ?? '192k', '-f', 'asf'],
  // AC-3 takes 32..48 kHz only; 48 kHz is what DVDs and TVs carry.
  ac3: ({ bitrate }: AudioEncoding) => ['-c:a', 'ac3', '-b:a', bitrate ?? '192k', '-ar', '48000', '-f', 'ac3'],
  au: () => ['-c:a', 'pcm_s16be', '-f', 'au'],
  caf: () => ['-c:a', 'pcm_s16le', '-f', 'caf'],
  wv: () => ['-c:a', 'wavpack', '-f', 'wv'],
} as const satisfies Record<string, (encoding: AudioEncoding) => string[]>;

export const AUDIO_WRITES = Object.keys(AUDIO_ENCODINGS) as AudioTarget[];
/** Lossy targets take the bitrate option. */
export const LOSSY_AUDIO: ReadonlySet<string> = new Set(['mp3', 'ogg', 'm4a', 'aac', 'opus', 'wma', 'ac3']);
/** The audio targets most people want: a universal lossy one, a lossless one, an editable one. */
export const RECOMMENDED_AUDIO: ReadonlySet<string> = new Set(['mp3', 'wav', 'flac']);

/**
 * Per channel, the highest bitrate these encoders take (libvorbis refuses 256k for mono, libopus more than
 * 256k per channel): a bitrate asked for above it is lowered to it rather than failing the conversion.
 */
const MAX_BITRATE_PER_CHANNEL: Readonly<Record<string, number>> = { ogg: 192_000, opus: 256_000 };

/** The bitrate option as the encoder of `to` can honour it for `channels` channels. */
export function effectiveBitrate(to: string, bitrate: string | undefined, channels: number): string | undefined {
  const max = MAX_BITRATE_PER_CHANNEL[to];
  if (!bitrate || max === undefined) return bitrate;
  const ceiling = max * Math.max(1, channels);
  return Number.parseInt(bitrate, 10) * 1000 > ceiling ? `${Math.floor(ceiling / 1000)}k` : bitrate;
}

/** Input arguments shared by every ffmpeg step: the local file only, read by the demuxer of its format. */
export function inputArgs(from: string, inputPath: string): string[] {
  const demuxer = DEMUXERS[from];
  if (!demuxer) throw new Error(`no demuxer for ${from}`);
  return ['-protocol_whitelist', 'file', '-f', demuxer, '-i', `file:${inputPath}`];
}
