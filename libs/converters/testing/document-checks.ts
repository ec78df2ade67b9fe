import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

// Decoders that are not ours: libmagic (`file`), poppler (`pdfinfo`, `pdftotext`), Info-ZIP (`unzip`).

export const mimeOf = (path: string) => execFileSync('file', ['--brief', '--mime-type', path], { encoding: 'utf8' }).trim();
export const pdfInfo = (path: string, ...args: string[]) => execFileSync('pdfinfo', [...args, path], { encoding: 'utf8' });
export const pdfPages = (path: string) => Number(/^Pages:\s+(\d+)/m.exec(pdfInfo(path))?.[1]);
export const pdfText = (path: string) => execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
export const zipEntries = (path: string) => execFileSync('unzip', ['-Z1', path], { encoding: 'utf8' }).split('\n').filter(Boolean);
export const zipText = (path: string, entry: string) => execFileSync('unzip', ['-p', path, entry], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

const OOXML = {
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', main: 'word/document.xml', text: ['word/document.xml'] },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', main: 'xl/workbook.xml', text: ['xl/sharedStrings.xml', 'xl/worksheets/sheet1.xml'] },
  pptx: { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', main: 'ppt/presentation.xml', text: ['ppt/slides/slide1.xml'] },
} as const;
const ODF = { odt: 'text', ods: 'spreadsheet', odp: 'presentation' } as const;
const TEXT_MIMES: Record<string, RegExp> = { rtf: /^text\/rtf$/, txt: /^text\/plain$/, html: /^text\/html$/, csv: /^text\/(csv|plain)$/ };

/** Checks that `path` is a well-formed `format` file holding `marker` (its text, as the format's reader sees it). */
export function expectDocument(path: string, format: string, marker: string): void {
  const mime = mimeOf(path);
  if (format === 'pdf') {
    expect(mime).toBe('application/pdf');
    expect(pdfPages(path)).toBeGreaterThanOrEqual(1);
    expect(pdfText(path)).toContain(marker);
  } else if (format in OOXML) {
    const kind = OOXML[format as keyof typeof OOXML];
    expect(mime).toBe(kind.mime);
    const entries = zipEntries(path);
    expect(entries).toContain('[Content_Types].xml');
    expect(entries).toContain(kind.main);
    expect(kind.text.filter((entry) => entries.includes(entry)).map((entry) => zipText(path, entry)).join('\n')).toContain(marker);
  } else if (format in ODF) {
    expect(mime).toBe(`application/vnd.oasis.opendocument.${ODF[format as keyof typeof ODF]}`);
    expect(zipText(path, 'mimetype')).toBe(`application/vnd.oasis.opendocument.${ODF[format as keyof typeof ODF]}`);
    expect(zipText(path, 'content.xml')).toContain(marker);
  } else if (format in TEXT_MIMES) {
    expect(mime).toMatch(TEXT_MIMES[format]!);
    // HTML and RTF writers wrap lines anywhere: compare with whitespace collapsed.
    expect(readFileSync(path, 'utf8').replace(/\s+/g, ' ')).toContain(marker);
  } else {
    throw new Error(`no check for ${format}`);
  }
}

/** The resident memory of these processes, in MB (Linux /proc). */
export function residentMb(pids: readonly number[]): number {
  const kb = pids.reduce((sum, pid) => {
    try {
      return sum + Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return sum;
    }
  }, 0);
  return Math.round(kb / 1024);
}

/** pgrep -f: the pids whose command line contains `pattern` (a fixed string, here a path). */
export function pgrep(pattern: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number).filter((pid) => pid !== process.pid);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}
