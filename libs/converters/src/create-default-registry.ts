import { ConversionGraph } from './conversion-graph.js';
import type { Converter, EngineAvailability } from './converter.js';
import { FfmpegAudioConverter } from './ffmpeg-audio.converter.js';
import { SharpImageConverter } from './sharp-image.converter.js';

/** The engines this build knows, in order of preference; probing keeps those present. */
export function knownConverters(): Converter[] {
  return [new SharpImageConverter(), new FfmpegAudioConverter()];
}

export interface ConverterRegistry {
  graph: ConversionGraph;
  /** Ids of the engines whose probe failed. */
  missing: string[];
  engines: { id: string; availability: EngineAvailability }[];
}

/** Probes the engines (I/O) and builds the pure graph from those present. */
export async function createDefaultRegistry(converters: Converter[] = knownConverters()): Promise<ConverterRegistry> {
  const engines = await Promise.all(
    converters.map(async (converter) => ({
      converter,
      availability: await converter.probe().catch((error: Error): EngineAvailability => ({ available: false, problem: error.message })),
    })),
  );
  return {
    graph: new ConversionGraph(engines.filter((e) => e.availability.available).map((e) => e.converter)),
    missing: engines.filter((e) => !e.availability.available).map((e) => e.converter.id),
    engines: engines.map((e) => ({ id: e.converter.id, availability: e.availability })),
  };
}

/** The name the API module already uses. */
export const createConversionGraph = createDefaultRegistry;
