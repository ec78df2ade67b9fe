/** PDF rewritten by qpdf (linearised, object streams) and PostScript/EPS/SVG written by poppler. */
import { join } from 'node:path';
import { attempt, keep, run, work } from './corpus-context.js';

export function pdfTools(): void {
  for (const index of [0, 1, 2]) {
    const source = join(work, `gs-page-${index}.pdf`);
    attempt('qpdf linearize', () => {
      run('qpdf', ['--linearize', source, `qpdf-lin-${index}.pdf`]);
      keep('pdf', join(work, `qpdf-lin-${index}.pdf`), 'qpdf');
    });
    attempt('qpdf object streams', () => {
      run('qpdf', ['--object-streams=generate', '--deterministic-id', source, `qpdf-objstm-${index}.pdf`]);
      keep('pdf', join(work, `qpdf-objstm-${index}.pdf`), 'qpdf');
    });
    attempt('poppler pdftops', () => {
      run('pdftops', [source, `poppler-${index}.ps`]);
      keep('ps', join(work, `poppler-${index}.ps`), 'poppler');
    });
    attempt('poppler pdftops -eps', () => {
      run('pdftops', ['-eps', source, `poppler-${index}.eps`]);
      keep('eps', join(work, `poppler-${index}.eps`), 'poppler');
    });
    attempt('poppler pdftocairo -svg', () => {
      run('pdftocairo', ['-svg', source, `poppler-${index}.svg`]);
      keep('svg', join(work, `poppler-${index}.svg`), 'poppler');
    });
    attempt('poppler pdftocairo -ps', () => {
      run('pdftocairo', ['-ps', source, `cairo-${index}.ps`]);
      keep('ps', join(work, `cairo-${index}.ps`), 'poppler-cairo');
    });
  }
}
