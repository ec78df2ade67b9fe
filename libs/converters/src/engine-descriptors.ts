import { ARCHIVES_DESCRIPTOR } from './descriptors/archives.descriptor.js';
import { CALIBRE_DESCRIPTOR } from './descriptors/calibre.descriptor.js';
import { DATA_DESCRIPTOR } from './descriptors/data.descriptor.js';
import { FFMPEG_AUDIO_DESCRIPTOR } from './descriptors/ffmpeg-audio.descriptor.js';
import { FFMPEG_SUBTITLES_DESCRIPTOR } from './descriptors/ffmpeg-subtitles.descriptor.js';
import { FFMPEG_VIDEO_DESCRIPTOR } from './descriptors/ffmpeg-video.descriptor.js';
import { GHOSTSCRIPT_DESCRIPTOR } from './descriptors/ghostscript.descriptor.js';
import { IMAGEMAGICK_DESCRIPTOR } from './descriptors/imagemagick.descriptor.js';
import { IMG2PDF_DESCRIPTOR } from './descriptors/img2pdf.descriptor.js';
import { LIBREOFFICE_DESCRIPTOR } from './descriptors/libreoffice.descriptor.js';
import { OFFICE_MARKDOWN_DESCRIPTOR } from './descriptors/office-markdown.descriptor.js';
import { PANDOC_DESCRIPTOR } from './descriptors/pandoc.descriptor.js';
import { POPPLER_DESCRIPTOR } from './descriptors/poppler.descriptor.js';
import { SHARP_DESCRIPTOR } from './descriptors/sharp.descriptor.js';
import type { EngineDescriptor } from './engine-descriptor.js';

/** Every engine this build knows, in order of preference where two offer a pair at the same cost. */
export const ENGINE_DESCRIPTORS: readonly EngineDescriptor[] = [
  SHARP_DESCRIPTOR,
  IMAGEMAGICK_DESCRIPTOR,
  FFMPEG_AUDIO_DESCRIPTOR,
  FFMPEG_VIDEO_DESCRIPTOR,
  FFMPEG_SUBTITLES_DESCRIPTOR,
  LIBREOFFICE_DESCRIPTOR,
  PANDOC_DESCRIPTOR,
  CALIBRE_DESCRIPTOR,
  OFFICE_MARKDOWN_DESCRIPTOR,
  POPPLER_DESCRIPTOR,
  GHOSTSCRIPT_DESCRIPTOR,
  IMG2PDF_DESCRIPTOR,
  DATA_DESCRIPTOR,
  ARCHIVES_DESCRIPTOR,
];

const BY_ID = new Map(ENGINE_DESCRIPTORS.map((descriptor) => [descriptor.id, descriptor]));

export function engineDescriptor(id: string): EngineDescriptor | undefined {
  return BY_ID.get(id);
}
