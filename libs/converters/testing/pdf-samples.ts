import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { handWrittenPdf } from './hand-written-pdf.js';

/**
 * Sample PDFs from several producers, made with the Debian tools directly (not through our runtimes), and
 * (the readers the tests check outputs with are in document-checks.ts).
 */
export const run = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const psString = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** PostScript written here, one text line per page, as Ghostscript's pdfwrite makes a PDF of it (A4); `table` under the first page's line. */
export function postScript(pageTexts: readonly string[], table?: ReadonlyArray<readonly string[]>): string {
  const pages = pageTexts.map((text, index) => `72 700 moveto ${psString(text)} show ${index === 0 && table ? ruledTable(table) : ''}showpage`);
  return `%!PS-Adobe-3.0\n<< /PageSize [595 842] >> setpagedevice\n/Helvetica findfont 24 scalefont setfont\n${pages.join('\n')}\n`;
}

/** A table as an office suite prints one: ruled cells of 180 by 24 pt, each row's text (12 pt) on one baseline; the page's font restored after. */
function ruledTable(table: ReadonlyArray<readonly string[]>): string {
  const cells = table.flatMap((row, r) => row.map((cell, c) => `${72 + c * 180} ${640 - r * 24} 180 24 rectstroke ${78 + c * 180} ${648 - r * 24} moveto ${psString(cell)} show`));
  return `\n/Helvetica findfont 12 scalefont setfont 0.5 setlinewidth\n${cells.join('\n')}\n/Helvetica findfont 24 scalefont setfont\n`;
}

/** A PDF of one text line per page (Ghostscript's pdfwrite); `table` drawn under the first page's line. */
export function ghostscriptPdf(dir: string, name: string, pageTexts: readonly string[], table?: ReadonlyArray<readonly string[]>): string {
  return postScriptToPdf(dir, name, postScript(pageTexts, table));
}

/** An EPS of one page of text, written by Ghostscript's eps2write (run directly, not through our runtime). */
export function ghostscriptEps(dir: string, name: string, text: string): string {
  const ps = join(dir, `${name}-source.ps`);
  writeFileSync(ps, postScript([text]));
  const eps = join(dir, `${name}.eps`);
  run('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=eps2write', `-sOutputFile=${eps}`, ps]);
  return eps;
}

/** Ghostscript as a producer, run directly (not through our runtime). */
export function postScriptToPdf(dir: string, name: string, program: string): string {
  const ps = join(dir, `${name}.ps`);
  writeFileSync(ps, program);
  const pdf = join(dir, `${name}.pdf`);
  run('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=pdfwrite', `-sOutputFile=${pdf}`, ps]);
  return pdf;
}

export function handPdf(dir: string, name: string, pageTexts: readonly string[], extras?: Parameters<typeof handWrittenPdf>[1]): string {
  const pdf = join(dir, `${name}.pdf`);
  writeFileSync(pdf, handWrittenPdf(pageTexts, extras));
  return pdf;
}

/**
 * A photo-like JPEG (waves of colour with grain: continuous tone, so Ghostscript keeps it JPEG) of
 * `width` × `height` at `density` dpi: img2pdf makes the page that size.
 */
export async function photoJpeg(dir: string, name: string, width: number, height: number, density = 300): Promise<string> {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 1;
  const grain = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 40;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) pixels[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, 128 + 70 * Math.sin(x / (23 + c * 7)) * Math.cos(y / (31 + c * 5)) + grain()));
    }
  }
  const path = join(dir, `${name}.jpg`);
  await sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).withMetadata({ density }).toFile(path);
  return path;
}

export function img2pdfPdf(dir: string, name: string, images: string[]): string {
  const pdf = join(dir, `${name}.pdf`);
  run('img2pdf', ['-o', pdf, ...images]);
  return pdf;
}

/** qpdf as a producer: the pages of several PDFs in one. */
export function qpdfMerged(dir: string, name: string, pdfs: string[]): string {
  const pdf = join(dir, `${name}.pdf`);
  run('qpdf', ['--empty', '--pages', ...pdfs, '--', pdf]);
  return pdf;
}

/** AES-256 with a user password (needed to open it), or with an owner password only and restrictions. */
export function qpdfEncrypted(input: string, output: string, userPassword: string, restrictions: string[] = []): string {
  run('qpdf', ['--encrypt', userPassword, 'owner-secret', '256', ...restrictions, '--', input, output]);
  return output;
}


/** The loud message of a spec whose engine is missing; its tests then fail rather than skip. */
export function reportMissingEngine(engine: string, problem: string | undefined, debianPackages: readonly string[]): void {
  console.error(`\n*** ENGINE MISSING: ${engine} (${problem}). Install the Debian package(s) ${debianPackages.join(' ')}; these tests FAIL without it. ***\n`);
}
