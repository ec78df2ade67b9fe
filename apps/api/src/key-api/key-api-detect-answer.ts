import type { KeyApiDetectJson } from '../detection/detect-file-type.schemas.js';
import { type DetectionReport, tieSentence } from '../detection/detection-report.js';

/** The key API's plain sentence naming the detected type. */
export function detectionSentence(report: DetectionReport): string {
  const format = report.detected_format;
  if (!format) return 'The file type could not be determined from its name, size and first bytes.';
  let sentence =
    `The file is most likely ${article(format.description)} ${format.description} ` +
    `(format "${format.format}", extension .${format.canonical_extension}) with ${format.confidence_percent}% confidence.`;
  if (report.alternatives.length > 0) sentence += ` ${tieSentence(report.alternatives)}`;
  if (!report.extension_matches && report.suggested_filename && report.suggested_filename !== report.input_filename) {
    sentence += ` Its name does not match its content; suggested filename: ${report.suggested_filename}.`;
  }
  return sentence;
}

/** The same facts as JSON, for callers whose Accept header prefers application/json. */
export function detectionJson(report: DetectionReport): KeyApiDetectJson {
  return {
    Status: 'OK',
    detected: report.detected,
    format: report.detected_format?.format ?? null,
    description: report.detected_format?.description ?? null,
    mime_type: report.mime_type,
    confidence: report.detected_format?.confidence ?? 0,
    confidence_percent: report.detected_format?.confidence_percent ?? 0,
    canonical_extension: report.detected_format?.canonical_extension ?? null,
    extension_matches: report.extension_matches,
    suggested_filename: report.suggested_filename,
    convertible_to: report.convertible_to,
    alternatives: report.alternatives,
    message: detectionSentence(report),
  };
}

/** True when the Accept header ranks application/json above text/plain. */
export function prefersJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranked = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { type: type.trim(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const json = ranked.findIndex((entry) => entry.type === 'application/json');
  const text = ranked.findIndex((entry) => entry.type === 'text/plain' || entry.type === 'text/*' || entry.type === '*/*');
  return json !== -1 && (text === -1 || json < text);
}

function article(description: string): string {
  return /^[aeiou]/i.test(description) ? 'an' : 'a';
}
