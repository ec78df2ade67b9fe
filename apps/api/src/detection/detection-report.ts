import { assessConversionCompatibility, type DetectionResult, suggestFilename } from '@fileshift/detection';
import { mimeTypeOf } from '@fileshift/formats';
import { MAX_UPLOAD_BYTES } from '../config/upload-limit.js';
import type { AlternativeFormat, DetectFileTypeResponse } from './detect-file-type.schemas.js';

/** One detection as both APIs report it. */
export interface DetectionReport extends DetectFileTypeResponse {
  mime_type: string | null;
  extension_matches: boolean;
  /** The formats the bytes fit as well as the detected one (ties only a name breaks); the key API's JSON lists them. */
  alternatives: AlternativeFormat[];
}

/** Pure: the spec's DetectFileTypeResponse (plus two facts the key API shows) from a detection result. */
export function detectionReport(args: {
  filename: string;
  sizeBytes: number;
  result: DetectionResult;
  targetsOf: (formatId: string) => readonly string[];
}): DetectionReport {
  const { best } = args.result;
  const compatibility = assessConversionCompatibility({
    best,
    sizeBytes: args.sizeBytes,
    maxSizeBytes: MAX_UPLOAD_BYTES,
    targetsOf: args.targetsOf,
  });
  if (!best) {
    return {
      detected: false,
      input_filename: args.filename,
      suggested_filename: null,
      detected_format: null,
      convertible_to: [],
      convert_file_compatibility: { status: 'unknown', confidence: 0, reason: compatibility.reason },
      alternatives: [],
      mime_type: null,
      extension_matches: false,
    };
  }
  const confidence = Math.round(best.confidence * 1000) / 1000;
  const ties = args.result.candidates
    .filter((candidate) => candidate.tie)
    .map((candidate) => ({ format: candidate.format.id, description: candidate.format.description, confidence: candidate.confidence }));
  return {
    detected: true,
    input_filename: args.filename,
    suggested_filename: suggestFilename(args.filename, best.format),
    detected_format: {
      format: best.format.id,
      description: best.format.description,
      confidence,
      confidence_percent: Math.round(best.confidence * 100),
      canonical_extension: best.format.extension,
    },
    convertible_to: [...args.targetsOf(best.format.id)],
    // The spec's response has six fields: a tie is said in the compatibility reason, which both APIs show.
    convert_file_compatibility: ties.length ? { ...compatibility, reason: `${compatibility.reason} ${tieSentence(ties)}` } : compatibility,
    alternatives: ties,
    mime_type: mimeTypeOf(best.format.id),
    extension_matches: args.result.extensionMatches,
  };
}

/** What a tie means for the caller: the bytes fit these as well, and the name decides. */
export function tieSentence(ties: readonly AlternativeFormat[]): string {
  return `Its first 200 bytes fit ${ties.map((tie) => tie.format).join(', ')} as well; a file name with the right extension decides.`;
}
