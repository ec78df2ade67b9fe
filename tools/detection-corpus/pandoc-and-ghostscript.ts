/** Documents written by pandoc (several output settings) and PostScript/PDF/EPS written by ghostscript. */
import { join } from 'node:path';
import { attempt, keep, run, scratch, work } from './corpus-context.js';

export const MARKDOWN_SOURCES = [
  '# Quarterly report\n\nRevenue grew **12%**. See [the appendix](#appendix).\n\n- north\n- south\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
  '## Meeting notes\n\n1. Agree the plan\n2. Ship it\n\n> Quote of the day.\n\n```js\nconsole.log(1)\n```\n',
  '# Title\n\nA plain paragraph with *emphasis* and a footnote.[^1]\n\n[^1]: The note.\n\n## Section\n\nMore text here.\n',
];

const OUTPUTS: Array<[format: string, ext: string, args: string[]]> = [
  ['docx', 'docx', []], ['odt', 'odt', []], ['epub', 'epub', ['--metadata', 'title=Book']], ['epub', 'epub', ['-t', 'epub2', '--metadata', 'title=Old book']],
  ['pptx', 'pptx', []], ['rtf', 'rtf', ['-s']], ['html', 'html', ['-s', '--metadata', 'title=Page']], ['html', 'htm', ['-t', 'html4']],
  ['tex', 'tex', ['-s']], ['tex', 'tex', []], ['org', 'org', []], ['adoc', 'adoc', ['-t', 'asciidoc']], ['fb2', 'fb2', []], ['rst', 'rst', []],
  ['xml', 'xml', ['-t', 'docbook', '-s']], ['xml', 'xml', ['-t', 'jats', '-s']], ['json', 'json', ['-t', 'json']], ['ipynb', 'ipynb', ['-t', 'ipynb']],
  ['md', 'md', ['-t', 'gfm']], ['md', 'markdown', ['-t', 'commonmark']], ['txt', 'txt', ['-t', 'plain']],
];

/** Pandoc outputs (docN-V.ext) stay in the scratch directory as inputs for LibreOffice and calibre. */
export function pandocAndGhostscript(): void {
  for (const [index, text] of MARKDOWN_SOURCES.entries()) {
    const source = scratch(`doc-${index}.md`, text);
    keep('md', source, 'handwritten');
    for (const [variant, [format, ext, args]] of OUTPUTS.entries()) {
      attempt(`pandoc ${format} (#${variant})`, () => {
        const out = `doc${index}-${variant}.${ext}`;
        run('pandoc', [source, ...args, '-o', out]);
        keep(format, join(work, out), 'pandoc');
      });
    }
    attempt('ghostscript ps/eps/pdf', () => {
      const ps = scratch(`page-${index}.ps`, `%!PS-Adobe-3.0\n%%Pages: 1\n/Helvetica findfont ${12 + index} scalefont setfont\n72 ${700 - index * 50} moveto (Page ${index}) show\nshowpage\n`);
      keep('ps', ps, 'handwritten');
      const gs = (device: string, out: string) => run('gs', ['-q', '-dBATCH', '-dNOPAUSE', '-dSAFER', `-sDEVICE=${device}`, `-sOutputFile=${out}`, ps]);
      gs('pdfwrite', `gs-page-${index}.pdf`);
      keep('pdf', join(work, `gs-page-${index}.pdf`), 'ghostscript');
      gs('eps2write', `gs-page-${index}.eps`);
      keep('eps', join(work, `gs-page-${index}.eps`), 'ghostscript');
      gs('ps2write', `gs-page-${index}.ps`);
      keep('ps', join(work, `gs-page-${index}.ps`), 'ghostscript');
    });
  }
}
