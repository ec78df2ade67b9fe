/** GNU gettext message catalogues compiled by msgfmt, in both byte orders. */
import { join } from 'node:path';
import { attempt, keep, run, scratch, work } from './corpus-context.js';

const CATALOGUES = [
  'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Hello"\nmsgstr "Bonjour"\n',
  'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\nPlural-Forms: nplurals=2; plural=(n != 1);\\n"\n\nmsgid "file"\nmsgid_plural "files"\nmsgstr[0] "Datei"\nmsgstr[1] "Dateien"\n',
];

export function gettext(): void {
  for (const [index, po] of CATALOGUES.entries()) {
    const source = scratch(`catalogue-${index}.po`, po);
    for (const [endian, ext] of [['little', 'mo'], ['big', 'gmo']] as const) {
      attempt(`msgfmt ${endian}`, () => {
        const out = `catalogue-${index}-${endian}.${ext}`;
        run('msgfmt', [`--endianness=${endian}`, '-o', out, source]);
        keep('mo', join(work, out), 'msgfmt');
      });
    }
  }
}
