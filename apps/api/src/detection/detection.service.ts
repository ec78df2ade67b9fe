import { Injectable } from '@nestjs/common';
import type { ConversionPlan } from '@fileshift/converters';
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

  /** The target ids a conversion of this file may ask for: those of its format when the bytes show one an engine reads, else every target. */
  async validTargets(input: DetectionInput): Promise<{ source: string | null; targets: string[] }> {
    const { graph } = await this.liveConversions.current();
    const { best } = detectFormat(input);
    const ofSource = best?.evidence === 'content' ? graph.targetsOf(best.format.id) : [];
    if (best && ofSource.length > 0) return { source: best.format.id, targets: [...ofSource].sort() };
    return { source: null, targets: [...new Set(graph.sourceFormats().flatMap((format) => graph.targetsOf(format)))].sort() };
  }
}
