import type { ContentLoss } from '@fileshift/formats';
import type { z } from 'zod';
import type { OptionName } from './conversion-options.js';
import type { SocketPolicy } from './sandbox/seccomp/seccomp-rules.js';

/** Which queue an engine's conversions wait in: a slow document never holds up an image. */
export const ENGINE_CLASSES = ['documents', 'media', 'images'] as const;
export type EngineClass = (typeof ENGINE_CLASSES)[number];

/** One conversion an engine offers, between lowercase canonical format ids of @fileshift/formats. */
export interface EnginePair {
  from: string;
  to: string;
  /** A target worth offering first (the key API marks these 1). */
  recommended?: boolean;
  /** The options this pair honours (see conversion-options.ts). */
  options?: readonly OptionName[];
  /**
   * Options that choose this pair's plan over a cheaper one of another engine (`ocr`: tesseract's searchable PDF
   * rather than img2pdf's picture). Without them a plan ending in this pair is only a fallback.
   */
  chosenBy?: readonly OptionName[];
  /** The pair writes one file per page or frame (e.g. pdf → png); only the last step of a plan may. */
  multipleOutputs?: boolean;
  /** Overrides the engine's cost for this pair. */
  cost?: number;
  /**
   * Only as a plan's first step: the input must really be this format (pdf → txt of a real PDF makes
   * sense; of a PDF just made from a PNG it is empty).
   */
  firstStepOnly?: boolean;
  /**
   * Only first in a plan or after steps of this class's engines (OCR reads a picture an image engine decoded, a HEIC
   * say, never a frame of a video or a page an office suite drew).
   */
  onlyAfter?: EngineClass;
  /**
   * Only as a plan's last step: its output is for the caller, not for another engine (pandoc's HTML of a book names
   * its pictures as files it does not write; a step on would lose them).
   */
  lastStepOnly?: boolean;
  /**
   * Its output goes on to another step only in a plan that loses less than every plan of the pair without such a step
   * (pandoc's FB2 on to calibre: a PDF's tables to an e-book, which DOCX could only carry in four steps). It never
   * makes a pair of its own, nor wins where a plan without it keeps as much.
   */
  passesOnOnlyToLoseLess?: boolean;
  /**
   * What this engine loses on this pair that the target could hold (a writer that puts each table cell on a line of
   * its own): documented in the catalogue and asserted by the conversion matrix. Losses the formats imply are not
   * repeated here (`contentLosses`).
   */
  losses?: readonly ContentLoss[];
}

/**
 * Several files an engine joins into one of a format: PDFs into one PDF (a page range each), pictures into a PDF (a
 * page each), any files into an archive. A job of several files is converted member by member to one of `members`
 * (or taken as it is), then joined.
 */
export interface EngineJoin {
  /** The format of the joined file. */
  into: string;
  /** The formats the engine joins, or `any` (an archive holds any file as it is). */
  members: readonly string[] | 'any';
  /** The options the join honours (e.g. a merged PDF's `metadata`). */
  options?: readonly OptionName[];
  /** Relative cost of one join; of two joiners into one format, the cheaper one that takes every member wins. */
  cost?: number;
}

/** Limits an engine enforces on every conversion; they fail with the spec's failure types. */
export interface EngineLimits {
  timeoutMs: number;
  maxOutputBytes: number;
  /** Documents: pages read or rendered. */
  maxPages?: number;
  /** Media: the output is cut at this duration. */
  maxDurationSeconds?: number;
  /** Images: inputs with more pixels are refused before decoding. */
  maxInputPixels?: number;
  /** Documents rendered to images: a page that would render to more pixels is refused before rendering. */
  maxPagePixels?: number;
  /** Engines that parse in memory: a larger input is refused before it is read. */
  maxInputBytes?: number;
  /** Archives: an archive listing more entries (files and directories) is refused before extracting (`file_too_large`). */
  maxEntries?: number;
  /**
   * Archives: the most bytes the entries may expand to. Declared sizes over it are refused before extracting
   * (`file_too_large`); an extraction writing more than the archive declared is killed (`security_rejected`).
   */
  maxExpandedBytes?: number;
  /** Archives: declared expanded size over archive size past which an archive is a bomb (`security_rejected`). */
  maxCompressionRatio?: number;
  /** Archives: the most directory levels an entry's path may have (`security_rejected`). */
  maxPathDepth?: number;
  /**
   * The sandbox's limits on the engine's processes (defaults in sandbox/process-limits.ts). Address space of
   * each process: past it, allocations fail and the conversion ends `file_too_large`.
   */
  memoryBytes?: number;
  /**
   * The memory the sandbox's processes may hold all together (their proportional resident size): past it the whole
   * sandbox is killed and the conversion ends `file_too_large`. It bounds what the address-space limit cannot: a browser
   * that reserves terabytes it never uses, a warm engine that grows over many conversions, an engine that forks.
   */
  residentBytes?: number;
  /**
   * CPU seconds one conversion may use: RLIMIT_CPU of a process started for it, measured per conversion in a
   * warm instance. Past it the conversion ends `timeout`; engines whose input can loop get one well under
   * `timeoutMs`.
   */
  cpuSeconds?: number;
  /** Processes and threads in one sandbox (RLIMIT_NPROC, counted in the sandbox's own user namespace). */
  processes?: number;
  /** Open files of each process (RLIMIT_NOFILE). */
  openFiles?: number;
  /** The largest file a process may write (RLIMIT_FSIZE; past it `file_too_large`). Default: the output and expansion limits. */
  fileBytes?: number;
}

/**
 * What an engine can do, known without running it: the API plans and validates from descriptors alone,
 * and never starts or configures an engine. Workers pair each descriptor with a runtime.
 */
export interface EngineDescriptor {
  id: string;
  engineClass: EngineClass;
  /** For the docs, the start-up log and the discovery documents. */
  description: string;
  /** Relative cost of one conversion (1 cheap … 10 heavy); the graph prefers the cheapest plan. */
  cost: number;
  pairs: readonly EnginePair[];
  limits: EngineLimits;
  /** Debian packages that bring the engine (the test command installs them; the start-up log names them). */
  debianPackages: readonly string[];
  /** Which sockets the engine's processes may open (default `unix-only`; see sandbox/seccomp/seccomp-rules.ts). */
  sockets?: SocketPolicy;
  /**
   * Options of the engine's own, by name (OCR's `languages`): the options catalogue (conversion-options.ts) collects
   * them from the registered engines. Their types are added to EngineOptionSchemas by declaration merging.
   */
  options?: Readonly<Record<string, z.ZodType>>;
  /** The joins it makes of several files (its runtime's `join`). */
  joins?: readonly EngineJoin[];
}

/** Every pair of `from` formats to `to` formats but the identities, with the same attributes. */
export function allPairs(from: readonly string[], to: readonly string[], attributes: (to: string) => Omit<EnginePair, 'from' | 'to'> = () => ({})): EnginePair[] {
  return from.flatMap((source) => to.filter((target) => target !== source).map((target) => ({ from: source, to: target, ...attributes(target) })));
}
