/** Office documents written by LibreOffice (Writer, Calc, Impress, Draw) from pandoc and hand-written inputs. */
import { existsSync, mkdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { attempt, keep, run, scratch, work } from './corpus-context.js';

/** [format id, output extension, --convert-to filter spec] per application. */
type Target = [format: string, ext: string, filter: string];

const WRITER: Target[] = [
  ['doc', 'doc', 'doc:MS Word 97'], ['docx', 'docx', 'docx:MS Word 2007 XML'], ['odt', 'odt', 'odt'], ['ott', 'ott', 'ott'],
  ['rtf', 'rtf', 'rtf'], ['pdf', 'pdf', 'pdf'], ['html', 'html', 'html:HTML (StarWriter)'], ['txt', 'txt', 'txt:Text (encoded):UTF8'],
];
const CALC: Target[] = [
  ['xls', 'xls', 'xls:MS Excel 97'], ['xlsx', 'xlsx', 'xlsx:Calc MS Excel 2007 XML'], ['xlsm', 'xlsm', 'xlsm:Calc MS Excel 2007 VBA XML'],
  ['ods', 'ods', 'ods'], ['csv', 'csv', 'csv:Text - txt - csv (StarCalc):59,34,76'], ['html', 'html', 'html:HTML (StarCalc)'], ['pdf', 'pdf', 'pdf:calc_pdf_Export'],
];
const IMPRESS: Target[] = [
  ['ppt', 'ppt', 'ppt:MS PowerPoint 97'], ['pptx', 'pptx', 'pptx:Impress MS PowerPoint 2007 XML'], ['ppsx', 'ppsx', 'ppsx:Impress MS PowerPoint 2007 XML AutoPlay'],
  ['odp', 'odp', 'odp'], ['pdf', 'pdf', 'pdf:impress_pdf_Export'],
];
const DRAW: Target[] = [['odg', 'odg', 'odg'], ['emf', 'emf', 'emf'], ['wmf', 'wmf', 'wmf'], ['eps', 'eps', 'eps'], ['pdf', 'pdf', 'pdf:draw_pdf_Export']];

const profile = () => pathToFileURL(join(work, 'lo-profile')).href;

function convert(application: string, targets: Target[], inputs: string[]): void {
  const sources = inputs.map((name) => join(work, name)).filter((path) => existsSync(path));
  for (const [format, ext, filter] of targets) {
    attempt(`libreoffice ${application} ${format}`, () => {
      const outdir = join(work, `lo-${application}-${ext}`);
      mkdirSync(outdir, { recursive: true });
      run('soffice', [`-env:UserInstallation=${profile()}`, '--headless', '--norestore', '--convert-to', filter, '--outdir', outdir, ...sources], {
        env: { ...process.env, HOME: join(work, 'lo-home') },
        timeout: 180_000,
      });
      for (const source of sources) {
        const out = join(outdir, `${basename(source, extname(source))}.${ext}`);
        if (existsSync(out)) keep(format, out, 'libreoffice', `lo-${application}-${basename(out)}`);
      }
    });
  }
}

/** Needs the pandoc outputs (doc*-0.docx, doc*-1.odt, doc*-4.pptx) and the hand-written CSV/SVG files. */
export function libreOffice(): void {
  convert('writer', WRITER, ['doc0-0.docx', 'doc1-1.odt', 'doc2-5.rtf', 'doc0-1.odt', 'doc2-0.docx']);
  // Two more sheets with numbers and dates, so that Calc's binary and XML writers see more than text cells.
  scratch('lo-sheet-3.csv', 'month,revenue,cost\n2020-01-31,1200.50,800\n2020-02-29,1350.25,910\n2020-03-31,990,1020\n');
  scratch('lo-sheet-4.csv', 'sku;qty;price\nA-1;3;9.99\nB-2;10;0.5\nC-3;1;120\n');
  convert('calc', CALC, ['text-0.csv', 'text-1.csv', 'text-2.csv', 'lo-sheet-3.csv', 'lo-sheet-4.csv']);
  convert('impress', IMPRESS, ['doc0-4.pptx', 'doc1-4.pptx', 'doc2-4.pptx']);
  convert('draw', DRAW, ['drawing-0.svg', 'drawing-1.svg', 'drawing-2.svg', 'poppler-0.svg']);
}
