import { open } from 'node:fs/promises';
import { ConversionError } from '../../platform/conversion-error.js';
import { throwIfEngineMissing } from '../../platform/engine-probe.js';
import type { StepContext } from '../../platform/engine-runtime.js';
import type { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';
import type { StepDeadline } from '../../platform/step-deadline.js';

/** A page as a viewer shows it: the crop box in points, its /Rotate applied. */
export interface PdfPageBox {
  width: number;
  height: number;
}

export interface PdfInfo {
  pages: number;
  encrypted: boolean;
  /** What the owner password allows; all true when the PDF is not encrypted. */
  permissions: { print: boolean; copy: boolean; change: boolean };
  title?: string;
  /** Only for the pages asked for with `boxesOf`. */
  pageBoxes: Map<number, PdfPageBox>;
}

const PDFINFO_TIMEOUT_MS = 30_000;
const KEPT_LINE = /^(?:Title:|Pages:|Encrypted:|Page\s+\d+ (?:rot|CropBox):)/;
/** Acrobat accepts a PDF whose header starts within the first 1024 bytes; so do we, and no further. */
const HEADER_WINDOW_BYTES = 1024;

/**
 * Reads a PDF's page count, encryption and page boxes with poppler's `pdfinfo`, before any engine works on
 * it: a password-protected PDF, a file that is no PDF, and a PDF with too many pages fail here, quickly
 * and with their own failure types, whichever engine follows (poppler, Ghostscript).
 */
export class PdfInfoReader {
  constructor(
    private readonly runner: SandboxedProcessRunner,
    private readonly pdfinfo = 'pdfinfo',
  ) {}

  async read(path: string, context: StepContext, deadline: StepDeadline, boxesOf?: { first: number; last: number }): Promise<PdfInfo> {
    await assertPdfHeader(path);
    // Seven lines a page with -box: more than the runner keeps of stdout, so the lines we read are kept here.
    const kept: string[] = [];
    let pending = '';
    const result = await this.runner.run({
      command: this.pdfinfo,
      args: ['-enc', 'UTF-8', ...(boxesOf ? ['-box', '-f', String(boxesOf.first), '-l', String(boxesOf.last)] : []), path],
      scratchDir: context.workDir,
      timeoutMs: deadline.remainingMs(PDFINFO_TIMEOUT_MS),
      signal: context.signal,
      onStdout: (chunk) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        kept.push(...lines.filter((line) => KEPT_LINE.test(line)));
      },
    });
    if (KEPT_LINE.test(pending)) kept.push(pending);
    throwIfEngineMissing(result, 'PDF');
    if (result.exitCode !== 0) {
      if (/incorrect password/i.test(result.stderrTail)) {
        throw new ConversionError('security_rejected', 'The PDF is password-protected: remove its password first (pdf → pdf with the decrypt option), then convert it.', false, result.stderrTail);
      }
      throw new ConversionError('unsupported_or_corrupt_input', 'The input could not be read as a PDF (it is damaged or not a PDF).', false, result.stderrTail);
    }
    const info = parsePdfInfo(kept.join('\n'));
    if (info.pages < 1) throw new ConversionError('unsupported_or_corrupt_input', 'The PDF has no pages.', false, result.stderrTail);
    return info;
  }
}

/**
 * Pure: pdfinfo's report. The document's own strings (title, subject…) come first and may hold line
 * breaks, so a title cannot forge the lines that follow it: for those the last occurrence counts.
 */
export function parsePdfInfo(stdout: string): PdfInfo {
  const lines = stdout.split('\n');
  const last = (pattern: RegExp) => lines.map((line) => pattern.exec(line)).filter((match) => match !== null).at(-1);
  const encryption = last(/^Encrypted:\s+(.*)$/)?.[1] ?? 'no';
  const encrypted = encryption.startsWith('yes');
  const allows = (permission: string) => !encrypted || !new RegExp(`\\b${permission}:no\\b`).test(encryption);
  const title = lines.map((line) => /^Title:\s+(.*)$/.exec(line)).find((match) => match !== null)?.[1]?.trim();

  const rotation = new Map<number, number>();
  const crop = new Map<number, { width: number; height: number }>();
  for (const line of lines) {
    const rot = /^Page\s+(\d+) rot:\s+(-?\d+)$/.exec(line);
    if (rot) rotation.set(Number(rot[1]), ((Number(rot[2]) % 360) + 360) % 360);
    const box = /^Page\s+(\d+) CropBox:\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)$/.exec(line);
    if (box) crop.set(Number(box[1]), { width: Math.abs(Number(box[4]) - Number(box[2])), height: Math.abs(Number(box[5]) - Number(box[3])) });
  }
  const pageBoxes = new Map<number, PdfPageBox>();
  for (const [page, { width, height }] of crop) {
    const quarterTurn = (rotation.get(page) ?? 0) % 180 === 90;
    pageBoxes.set(page, quarterTurn ? { width: height, height: width } : { width, height });
  }
  return {
    pages: Number(last(/^Pages:\s+(\d+)$/)?.[1] ?? 0),
    encrypted,
    permissions: { print: allows('print'), copy: allows('copy'), change: allows('change') },
    ...(title ? { title } : {}),
    pageBoxes,
  };
}

/**
 * A PDF encrypted with an owner password only opens without a password but says what it allows. We honour
 * it: images and text of its pages are "copying text and graphics" (poppler needs `copy`), and a rewritten
 * PDF would lose every restriction (Ghostscript needs all three).
 */
export function assertPermitted(info: PdfInfo, use: 'copy' | 'rewrite'): void {
  const { print, copy, change } = info.permissions;
  if (use === 'copy' && !copy) throw new ConversionError('security_rejected', "The PDF's permissions do not allow copying its text or images.");
  if (use === 'rewrite' && !(print && copy && change)) {
    throw new ConversionError('security_rejected', "The PDF's permissions restrict printing, copying or changing it; a rewritten PDF would lose those restrictions.");
  }
}

/** A file whose first 1024 bytes hold no `%PDF-` header is not read as a PDF (Ghostscript would run it as PostScript). */
async function assertPdfHeader(path: string): Promise<void> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) throw new ConversionError('unsupported_or_corrupt_input', 'The input file could not be opened.');
  try {
    const head = Buffer.alloc(HEADER_WINDOW_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEADER_WINDOW_BYTES, 0);
    if (!head.subarray(0, bytesRead).includes('%PDF-')) throw new ConversionError('unsupported_or_corrupt_input', 'The input is not a PDF (it has no PDF header).');
  } finally {
    await handle.close();
  }
}
