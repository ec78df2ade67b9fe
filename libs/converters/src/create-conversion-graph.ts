import { ConversionGraph } from './conversion-graph.js';
import type { Converter } from './converter.js';
import { FfmpegAudioConverter } from './ffmpeg-audio.converter.js';
import { SharpImageConverter } from './sharp-image.converter.js';

/** The engines this build knows; probing keeps only those present on the machine. */
export function knownConverters(): Converter[] {
  return [new SharpImageConverter(), new FfmpegAudioConverter()];
}

export async function createConversionGraph(converters: Converter[] = knownConverters()): Promise<{ graph: ConversionGraph; missing: string[] }> {
  const probes = await Promise.all(converters.map(async (converter) => ({ converter, result: await converter.probe().catch(() => ({ available: false })) })));
  return {
    graph: new ConversionGraph(probes.filter((p) => p.result.available).map((p) => p.converter)),
    missing: probes.filter((p) => !p.result.available).map((p) => p.converter.id),
  };
}
