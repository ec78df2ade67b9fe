import { Injectable } from '@nestjs/common';
import { type ConversionPlan, type GraphJoin, type JoinPlanning, planJoin } from '@fileshift/converters';
import { detectFormat } from '@fileshift/detection';
import { LiveConversionsService } from '../live-conversions/live-conversions.service.js';
import { decideSourceFormat, type SourceFormatDecision } from '../conversion-requests/source-format.js';
import { type DetectionReport, detectionReport } from './detection-report.js';

export interface DetectionInput {
  filename: string;
  sizeBytes: number;
  createdAt?: Date;
  mimeHint?: string;
  header: Uint8Array;
}

/** A conversion that can start: where it starts from and its plans (cheapest first), or why it cannot. */
export type ConversionDecision = (SourceFormatDecision & { ok: false }) | { ok: true; format: string; plans: ConversionPlan[] };

/** Detection for both APIs: the pure detector plus what the live workers' engines can convert. */
@Injectable()
export class DetectionService {
  constructor(private readonly liveConversions: LiveConversionsService) {}

  async detect(input: DetectionInput): Promise<DetectionReport> {
    const { graph } = await this.liveConversions.current();
    return detectionReport({
      filename: input.filename,
      sizeBytes: input.sizeBytes,
      result: detectFormat(input),
      targetsOf: (formatId) => graph.targetsOf(formatId),
    });
  }

  /** The format a conversion of this file to `target` starts from, by the evidence rule, and its plans; or why it cannot start. */
  async planConversion(input: DetectionInput, target: string): Promise<ConversionDecision> {
    const live = await this.liveConversions.current();
    const source = decideSourceFormat({ detection: detectFormat(input), target, targetsOf: (formatId) => live.graph.targetsOf(formatId) });
    if (!source.ok) return source;
    const plans = live.plans(source.format, target);
    if (plans.length === 0) {
      return { ok: false, problem: 'no_conversion_path', message: `No worker that converts ${source.format} to ${target} is running now; retry later.` };
    }
    return { ok: true, format: source.format, plans };
  }

  /**
   * A join of several files into `target` (see planJoin): the format each one's bytes show (undefined: none, which only
   * an archive takes), and how the live workers' engines join them, or which file stops them.
   */
  async planJoin(inputs: readonly DetectionInput[], target: string): Promise<{ formats: Array<string | undefined>; planning: JoinPlanning; join?: GraphJoin }> {
    const { graph } = await this.liveConversions.current();
    const formats = inputs.map((input) => {
      const { best } = detectFormat(input);
      return best?.evidence === 'content' ? best.format.id : undefined;
    });
    const planning = planJoin(graph, formats, target);
    return { formats, planning, join: planning.ok ? graph.joinsInto(target).find((join) => join.engine === planning.plan.engine) : undefined };
  }

  /** The target ids a conversion of this file may ask for: those of its format when the bytes show one an engine reads, else every target. */
  async validTargets(input: DetectionInput): Promise<{ source: string | null; targets: string[] }> {
    const { graph } = await this.liveConversions.current();
    const { best } = detectFormat(input);
    const ofSource = best?.evidence === 'content' ? graph.targetsOf(best.format.id) : [];
    if (best && ofSource.length > 0) return { source: best.format.id, targets: [...ofSource].sort() };
    return { source: null, targets: [...new Set(graph.sourceFormats().flatMap((format) => graph.targetsOf(format)))].sort() };
  }
}
