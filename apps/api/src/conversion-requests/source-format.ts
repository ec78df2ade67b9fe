import type { DetectionResult } from '@fileshift/detection';
import { getFormat } from '@fileshift/formats';

export type SourceFormatDecision =
  | { ok: true; format: string }
  | { ok: false; problem: 'unreadable_input' | 'no_conversion_path'; message: string };

/**
 * Pure: the format a conversion starts from, and whether it can start at all. The evidence rule: the
 * bytes must show the format — a magic number, a container's header (the name may pick a member of
 * the family the container shows, e.g. docx among zip-based formats), or text the sniffer recognises.
 * A file name, an extension or a MIME type alone never vouches for a format; where the bytes show
 * another format than the name says, the bytes win. That format must be one an engine here reads, and
 * it must reach the target.
 */
export function decideSourceFormat(args: {
  detection: DetectionResult;
  target: string;
  targetsOf: (format: string) => readonly string[];
}): SourceFormatDecision {
  const { best } = args.detection;
  if (!best || best.evidence !== 'content') {
    const named = best ? ` Its name says ${best.format.id}, but the bytes do not show a ${best.format.id} file (its signature is missing).` : '';
    return { ok: false, problem: 'unreadable_input', message: `The first bytes of the file show no format this service knows.${named}` };
  }
  const source = best.format.id;
  const targets = args.targetsOf(source);
  if (targets.length === 0) {
    return { ok: false, problem: 'unreadable_input', message: `The file is ${best.format.description} (${source}) judging by its bytes; no engine here reads ${source}.` };
  }
  if (!targets.includes(args.target)) {
    const claimed = args.detection.candidates.find((candidate) => candidate.evidence === 'name');
    const contradiction = claimed ? `, not ${claimed.format.id} as declared` : '';
    return {
      ok: false,
      problem: 'no_conversion_path',
      message: `The file is ${best.format.description} (${source}) judging by its bytes${contradiction}; ${source} cannot be converted to ${getFormat(args.target)?.id ?? args.target} here.`,
    };
  }
  return { ok: true, format: source };
}
