import { extensionOf, type FileFormat, formatByExtension, formatsByMimeType, getFormat } from '@fileshift/formats';
import { binarySignature } from './binary-signatures.js';
import type { ContentGuess } from './content-guess.js';
import { decodeText, sniffText } from './text-sniffer.js';

export const HEADER_LIMIT = 200;

export interface DetectionInput {
  filename?: string;
  sizeBytes: number;
  createdAt?: Date;
  /** A MIME type the caller guessed; a weaker prior than the extension. */
  mimeHint?: string;
  /** At most the first 200 bytes of the file. */
  header: Uint8Array;
}

/** What vouches for a candidate: the bytes themselves, or only the file name (or MIME hint). */
export type DetectionEvidence = 'content' | 'name';

export interface DetectionCandidate {
  format: FileFormat;
  /** 0..1 */
  confidence: number;
  reasons: string[];
  /** `content` when the bytes show the format (or its family, the name picking within it); `name` when nothing in the bytes does. */
  evidence: DetectionEvidence;
  /** The bytes fit it as well as the format chosen (a family the first 200 bytes cannot split): only a name or MIME type can tell. */
  tie?: true;
}

export interface DetectionResult {
  candidates: DetectionCandidate[];
  best: DetectionCandidate | null;
  /** The file name's extension names the best candidate's format. */
  extensionMatches: boolean;
}

/** Below this, a content guess with a family is a tie the bytes cannot break. */
const HONEST_TIE = 0.9;
const TEXTUAL = new Set(['text', 'code', 'data']);
const TEXT_TABLES = new Set(['csv', 'tsv']);
/** Data formats that are binary: a text header is never one of them, whatever its name says. */
const BINARY_DATA = new Set(['sqlite', 'parquet', 'avro', 'pcap', 'wasm', 'dicom', 'mo']);
/**
 * Text formats that open with their own signature (a root element, a header line, a brace): a text
 * header without it is not one of them, so their extension cannot overrule what the text shows.
 */
const SELF_ANNOUNCING = new Set(['rtf', 'svg', 'xml', 'html', 'rss', 'atom', 'kml', 'gpx', 'plist', 'fb2', 'json', 'ndjson', 'geojson', 'ipynb', 'gltf', 'vtt', 'srt', 'ass', 'ics', 'vcf', 'eml', 'xbm', 'xpm', 'php']);
const isTextual = (format: FileFormat) =>
  (TEXTUAL.has(format.category) || TEXT_TABLES.has(format.id) || format.id === 'svg' || format.id === 'rtf') && !BINARY_DATA.has(format.id);
/** A textual format whose files need not show it in their first bytes: its extension may decide what generic text is. */
const isFreeForm = (format: FileFormat) => isTextual(format) && !SELF_ANNOUNCING.has(format.id);

/**
 * Ranks the formats a file may be: the bytes first (magic numbers, container clues, text
 * sniffing), the extension (or MIME hint) as a prior that raises agreement, picks within a family
 * the bytes cannot split, and stands alone only at low confidence.
 */
export function detectFormat(input: DetectionInput): DetectionResult {
  const header = input.header.subarray(0, HEADER_LIMIT);
  const extension = extensionOf(input.filename ?? '');
  const prior = formatByExtension(extension) ?? (input.mimeHint ? formatsByMimeType(input.mimeHint)[0] : undefined);
  if (input.sizeBytes === 0 || header.length === 0) return result([], extension);

  // A byte-order mark means text, even where its bytes look like an audio frame sync.
  const content = hasBom(header) ? textGuess(header) : (binarySignature(header) ?? textGuess(header));
  const candidates: DetectionCandidate[] = [];
  const add = (format: FileFormat | undefined, confidence: number, reasons: string[], evidence: DetectionEvidence = 'content') => {
    if (!format || candidates.some((c) => c.format.id === format.id)) return;
    candidates.push({ format, confidence: round(Math.min(0.99, Math.max(0.01, confidence))), reasons, evidence });
  };

  if (!content) {
    if (prior) add(prior, 0.35, [`only the ${extension ? `extension .${extension}` : `MIME hint ${input.mimeHint}`} suggests it; the bytes show no known signature`], 'name');
    return result(candidates, extension);
  }

  const detected = getFormat(content.format)!;
  const confidence = content.confidence;
  const reasons = [content.reason];

  if (prior && prior.id !== detected.id && content.family?.includes(prior.id)) {
    add(prior, Math.max(confidence, 0.88), [...reasons, `the extension picks ${prior.id} among ${content.family.join('/')}`]);
    add(detected, confidence * 0.5, reasons);
  } else if (prior && prior.id !== detected.id && isFreeForm(prior) && detected.category === 'text' && content.confidence <= 0.6) {
    // Generic text: the extension knows better (a .py, .css or .log file is text).
    add(prior, 0.75, [`text content consistent with the extension .${extension}`]);
    add(detected, confidence * 0.6, reasons);
  } else if (prior && prior.id !== detected.id && isFreeForm(prior) && isTextual(detected) && content.confidence < 0.8) {
    add(prior, 0.7, [`text content; the extension .${extension} names ${prior.id}`]);
    add(detected, confidence * 0.8, reasons);
  } else if (prior && prior.id === detected.id) {
    add(detected, 1 - (1 - confidence) / 2, [...reasons, 'the extension agrees']);
  } else {
    add(detected, prior ? confidence * 0.97 : confidence, prior ? [...reasons, `the extension .${extension} says ${prior.id}, the content does not`] : reasons);
    if (prior) add(prior, 0.1, [`only the extension .${extension} suggests it`], 'name');
  }
  // Bytes that fit several formats equally well (an OOXML package, an OLE2 file): rank the rest of the family after the pick.
  if (content.family && content.confidence < HONEST_TIE) {
    for (const member of content.family) add(getFormat(member), confidence * 0.5, [`${content.reason}: the first ${HEADER_LIMIT} bytes cannot tell ${member} from ${detected.id}`]);
    for (const candidate of candidates) if (candidate !== candidates[0] && content.family.includes(candidate.format.id)) candidate.tie = true;
  }
  if (content.minSize !== undefined && input.sizeBytes < content.minSize) {
    for (const candidate of candidates) {
      candidate.confidence = round(candidate.confidence * 0.3);
      candidate.reasons.push(`${input.sizeBytes} bytes is too small for a whole ${detected.id} file`);
    }
  }
  return result(candidates, extension);
}

function hasBom(header: Uint8Array): boolean {
  return (header[0] === 0xef && header[1] === 0xbb && header[2] === 0xbf) || (header[0] === 0xff && header[1] === 0xfe) || (header[0] === 0xfe && header[1] === 0xff);
}

function textGuess(header: Uint8Array): ContentGuess | undefined {
  const decoded = decodeText(header);
  return decoded ? sniffText(decoded.text) : undefined;
}

function result(candidates: DetectionCandidate[], extension: string): DetectionResult {
  candidates.sort((a, b) => b.confidence - a.confidence);
  const best = candidates[0] ?? null;
  return { candidates, best, extensionMatches: Boolean(best && extension && best.format.extensions.includes(extension)) };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
