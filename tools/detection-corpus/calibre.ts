/** E-books written by calibre's ebook-convert from a small HTML book and from pandoc's EPUB. */
import { join } from 'node:path';
import { attempt, keep, run, scratch, work } from './corpus-context.js';

const TARGETS: Array<[format: string, ext: string]> = [['epub', 'epub'], ['azw3', 'azw3'], ['mobi', 'mobi'], ['fb2', 'fb2'], ['docx', 'docx'], ['txt', 'txt'], ['pdf', 'pdf']];

const HTML_BOOK = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>A Small Book</title><meta name="author" content="Ada Example"></head>
<body><h1>Chapter one</h1><p>It was a quiet morning in the lab.</p><h1>Chapter two</h1><p>The files arrived at noon.</p></body></html>
`;

export function calibre(): void {
  const inputs = [scratch('calibre-book.html', HTML_BOOK), join(work, 'doc0-2.epub'), join(work, 'doc1-3.epub'), join(work, 'doc2-2.epub')];
  for (const [index, input] of inputs.entries()) {
    for (const [format, ext] of TARGETS) {
      if (index > 0 && ['txt', 'pdf', 'docx'].includes(format)) continue; // one of each of these is plenty
      attempt(`calibre ${format}`, () => {
        const out = join(work, `calibre-${index}.${ext}`);
        run('ebook-convert', [input, out, '--title', `Calibre sample ${index}`], { env: { ...process.env, HOME: join(work, 'calibre-home'), CALIBRE_CONFIG_DIRECTORY: join(work, 'calibre-config') }, timeout: 180_000 });
        keep(format, out, 'calibre');
      });
    }
  }
  // The three MOBI flavours calibre writes: the old Mobipocket layout, KF8 only, and both joined.
  for (const flavour of ['old', 'new', 'both']) {
    attempt(`calibre mobi ${flavour}`, () => {
      const out = join(work, `calibre-mobi-${flavour}.mobi`);
      run('ebook-convert', [inputs[0]!, out, '--mobi-file-type', flavour], { env: { ...process.env, HOME: join(work, 'calibre-home'), CALIBRE_CONFIG_DIRECTORY: join(work, 'calibre-config') }, timeout: 180_000 });
      keep('mobi', out, 'calibre');
    });
  }
  // A second EPUB flavour: calibre's EPUB 3 output.
  attempt('calibre epub3', () => {
    const out = join(work, 'calibre-epub3.epub');
    run('ebook-convert', [inputs[0]!, out, '--epub-version', '3'], { env: { ...process.env, HOME: join(work, 'calibre-home'), CALIBRE_CONFIG_DIRECTORY: join(work, 'calibre-config') }, timeout: 180_000 });
    keep('epub', out, 'calibre');
  });
}
