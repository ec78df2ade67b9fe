import type { EngineDescriptor } from '../../platform/engine-descriptor.js';
import { probeVersions } from '../../platform/engine-probe.js';
import type { EngineAvailability, EngineRuntime, StepContext, StepOutcome, StepRequest } from '../../platform/engine-runtime.js';
import { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';
import type { FfmpegTools } from './ffmpeg-process.js';

/** What the ffmpeg engines (audio, video, subtitles) share: the binaries, run sandboxed, and their probe. */
export abstract class FfmpegEngine implements EngineRuntime {
  abstract readonly descriptor: EngineDescriptor;
  private engineTools?: FfmpegTools;

  constructor(
    private readonly runner = new SandboxedProcessRunner(),
    private readonly ffmpeg = 'ffmpeg',
    private readonly ffprobe = 'ffprobe',
  ) {}

  /** The binaries, run in the worker's sandbox with this engine's limits (its descriptor is known once constructed). */
  protected get tools(): FfmpegTools {
    return (this.engineTools ??= { runner: this.runner.forEngine(this.descriptor), ffmpeg: this.ffmpeg, ffprobe: this.ffprobe });
  }

  /** Both binaries answer: the engine is there. */
  probe(): Promise<EngineAvailability> {
    const { runner, ffmpeg, ffprobe } = this.tools;
    return probeVersions(runner, [{ command: ffmpeg, args: ['-hide_banner', '-version'] }, { command: ffprobe, args: ['-version'] }], this.descriptor.debianPackages);
  }

  abstract convert(request: StepRequest, context: StepContext): Promise<StepOutcome>;
}
