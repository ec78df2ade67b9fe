import { Inject, Injectable } from '@nestjs/common';
import { detectFormat } from '@fileshift/detection';
import { CONVERSION_GRAPH, type ConversionTargets } from '../conversion/conversion-graph.token.js';
import { decideSourceFormat, type SourceFormatDecision } from '../conversion/source-format.js';
import { type DetectionReport, detectionReport } from './detection-report.js';

export interface DetectionInput {
  filename: string;
  sizeBytes: number;
  createdAt?: Date;
  mimeHint?: string;
  header: Uint8Array;
}

/** Detection for both APIs: the pure detector plus what this machine's engines can convert. */
@Injectable()
export class DetectionService {
  constructor(@Inject(CONVERSION_GRAPH) private readonly graph: ConversionTargets) {}

  detect(input: DetectionInput): DetectionReport {
    const result = detectFormat(input);
    return detectionReport({
      filename: input.filename,
      sizeBytes: input.sizeBytes,
      result,
      targetsOf: (formatId) => this.graph.targetsOf(formatId),
    });
  }

  /** The format a conversion of this file to `target` starts from, by the evidence rule; or why it cannot start. */
  sourceFormat(input: DetectionInput, target: string): SourceFormatDecision {
    return decideSourceFormat({ detection: detectFormat(input), target, targetsOf: (formatId) => this.graph.targetsOf(formatId) });
  }
}
