import type { FailureType } from '../conversion-error.js';
import type { ConversionOptions } from '../conversion-options.js';
import type { EngineLimits } from '../engine-descriptor.js';

/** The engines whose code runs in the Node host (Node code and sharp's libvips, never in the worker itself). */
export const NODE_HOSTED_ENGINES = ['sharp', 'data', 'office-markdown'] as const;
export type NodeHostedEngine = (typeof NODE_HOSTED_ENGINES)[number];

/** Engines started per conversion or kept warm elsewhere, whose uploads the host reads first (the readers run here, not in the worker). */
export type PreparingEngine = 'libreoffice' | 'calibre';

/**
 * What the host does besides converting: the image facts img2pdf needs (header reads and 8-bit RGBA copies, by
 * sharp), and the checks and cleaned copies LibreOffice's and calibre's inputs get before those engines see them.
 */
export type HostTask =
  | { kind: 'convert'; engine: NodeHostedEngine; from: string; to: string; options: ConversionOptions }
  | { kind: 'image-pages' }
  | { kind: 'prepare-input'; engine: PreparingEngine; from: string }
  | { kind: 'ocr-pages' }
  | { kind: 'pdf-text'; to: 'md' | 'html'; title?: string; ocr?: OcrPages };

/**
 * Pages read by OCR, given to `pdf-text` after the pdftohtml parts: the last `tsvFiles.length` inputs are tesseract
 * TSV files, each numbering its pages from its `first`; such a page stands in for pdftohtml's page of that number.
 * `scale` maps the TSV's pixels onto pdftohtml's units.
 */
export interface OcrPages {
  tsvFiles: Array<{ first: number; scale: number }>;
}

/** One request, one JSON line on the host's stdin; paths are inside the host's exchange directory. */
export interface HostRequest {
  id: number;
  task: HostTask | { kind: 'probe' };
  /** The request's input files, in order (most tasks take one). */
  inputPaths: string[];
  outputDir?: string;
  limits?: EngineLimits;
}

/** What img2pdf learns from an image: its frames, and the files to give img2pdf (copies where img2pdf needs them). */
export interface ImagePages {
  frames: number;
  /** Empty: the input as it is. */
  copies: string[];
}

/** One JSON line on the host's stdout: progress of the running request, or its answer. */
export type HostReply =
  | { id: number; progress: number }
  | { id: number; ok: true; files: string[]; frames?: number; versions?: Record<string, string> }
  | { id: number; ok: false; failureType: FailureType; message: string; retryable: boolean; diagnostics?: string };
