import type { DetectionCandidate } from './detect-format.js';

export type CompatibilityStatus = 'yes' | 'likely' | 'maybe' | 'no' | 'unknown';

export interface ConversionCompatibility {
  status: CompatibilityStatus;
  confidence: number;
  reason: string;
}

/** Pure estimate of whether a conversion job would accept this file. */
export function assessConversionCompatibility(args: {
  best: DetectionCandidate | null;
  sizeBytes: number;
  maxSizeBytes: number;
  targetsOf: (formatId: string) => readonly string[];
}): ConversionCompatibility {
  const { best, sizeBytes, maxSizeBytes } = args;
  if (!best) return { status: 'unknown', confidence: 0, reason: 'The file type could not be detected, so convertibility is unknown.' };
  if (sizeBytes > maxSizeBytes) {
    return { status: 'no', confidence: 0.99, reason: `The file is ${sizeBytes} bytes; conversions accept at most ${maxSizeBytes} bytes.` };
  }
  const targets = args.targetsOf(best.format.id);
  if (targets.length === 0) {
    return { status: 'no', confidence: round(best.confidence), reason: `No conversion engine here reads ${best.format.description} (${best.format.id}).` };
  }
  const examples = targets.slice(0, 5).join(', ');
  const what = `${best.format.description} (${best.format.id}) can be converted to ${targets.length} format${targets.length > 1 ? 's' : ''}, e.g. ${examples}`;
  if (best.confidence >= 0.9) return { status: 'yes', confidence: round(best.confidence), reason: `${what}.` };
  if (best.confidence >= 0.7) return { status: 'likely', confidence: round(best.confidence), reason: `Probably ${what}.` };
  return { status: 'maybe', confidence: round(best.confidence), reason: `Low-confidence guess: if it is ${what}.` };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
