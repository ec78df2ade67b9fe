import type { EngineDescriptor } from '../engine-descriptor.js';
import type { EngineAvailability, EngineRuntime, StepContext, StepOutcome, StepRequest } from '../engine-runtime.js';
import { SandboxedProcessRunner } from '../sandboxed-process.runner.js';
import { type FfmpegTools, probeFfmpeg } from './ffmpeg-process.js';

/** What the ffmpeg engines (audio, video, subtitles) share: the binaries, run sandboxed, and their probe. */
export abstract class FfmpegEngine implements EngineRuntime {
  abstract readonly descriptor: EngineDescriptor;
  protected readonly tools: FfmpegTools;

  constructor(runner = new SandboxedProcessRunner(), ffmpeg = 'ffmpeg', ffprobe = 'ffprobe') {
    this.tools = { runner, ffmpeg, ffprobe };
  }

  probe(): Promise<EngineAvailability> {
    return probeFfmpeg(this.tools);
  }

  abstract convert(request: StepRequest, context: StepContext): Promise<StepOutcome>;
}
