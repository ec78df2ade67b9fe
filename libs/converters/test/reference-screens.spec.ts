import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withoutLocalFileLinks } from '../src/engines/calibre/docx-local-links.js';
import { mobiText } from '../src/engines/calibre/mobi-text.js';
import { outsideMobiSvgImage, outsideSvgImage } from '../src/engines/calibre/svg-image-references.js';
import { replaceZipEntries } from '../src/shared/zip-rewrite.js';
import { withoutFileFields } from '../src/engines/libreoffice/rtf-file-fields.js';
import { UNO_BRIDGE_SCRIPT } from '../src/engines/libreoffice/uno-bridge-client.js';
import { zipEntries, zipText } from '../testing/document-checks.js';
import { sampleEpub } from '../testing/markup-samples.js';
import { SAMPLE_HEADING, sampleDocx, sampleRtf } from '../testing/office-samples.js';
import { sampleMobi, writeAzw3Sample } from '../testing/ebook-samples.js';
import { zip } from '../testing/zip-writer.js';

// The pure pieces that keep engines from reading files a document names, one by one (document-references.spec.ts
// runs the engines themselves).

const dir = mkdtempSync(join(tmpdir(), 'fileshift-reference-screens-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('withoutFileFields: RTF fields that read a file are blanked before LibreOffice reads them', () => {
  const withField = (instruction: string, result = 'shown') => Buffer.from(sampleRtf().replace(/\}\n$/, `{\\field{\\*\\fldinst ${instruction}}{\\fldrslt ${result}}}\\par\n}\n`), 'latin1');

  it.each([
    ['INCLUDEPICTURE "/etc/secret.png" \\\\d'],
    ['INCLUDETEXT "/etc/secret.txt"'],
    ['  includepicture "/etc/secret.png"'],
    ['{INCLUDE}{PICTURE "/etc/secret.png"}'],
    ["\\'49NCLUDEPICTURE \"/etc/secret.png\""],
    ['\\u73?NCLUDEPICTURE "/etc/secret.png"'],
    ['\\uc2\\u73??NCLUDEPICTURE "/etc/secret.png"'],
    ['IMPORT "/etc/secret.png"'],
  ])('blanks %s, keeping the field result and the bytes around it', (instruction) => {
    const rtf = withField(instruction);
    const cleaned = withoutFileFields(rtf)!;
    expect(cleaned).toBeDefined();
    expect(cleaned.length).toBe(rtf.length);
    expect(cleaned.toString('latin1')).not.toContain('secret');
    expect(cleaned.toString('latin1')).toContain('{\\fldrslt shown}');
    expect(cleaned.toString('latin1')).toContain(SAMPLE_HEADING);
  });

  it('leaves other fields, and a document without any, as they are', () => {
    expect(withoutFileFields(withField('HYPERLINK "https://example.org/include"'))).toBeUndefined();
    expect(withoutFileFields(withField('PAGE'))).toBeUndefined();
    expect(withoutFileFields(Buffer.from(sampleRtf()))).toBeUndefined();
  });

  it('steps over \\bin data, braces in it included', () => {
    const rtf = Buffer.concat([Buffer.from('{\\rtf1 {\\*\\blob\\bin4 }}{{}{\\field{\\*\\fldinst INCLUDEPICTURE "/x.png"}{\\fldrslt r}}}', 'latin1')]);
    expect(withoutFileFields(rtf)?.toString('latin1')).not.toContain('/x.png');
  });
});

describe('withoutLocalFileLinks: a DOCX reaches calibre without relationships to local files', () => {
  const rels = (relationships: string) =>
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships}</Relationships>`;
  const docxWith = (documentRels: string) =>
    zip([...unzipAll(sampleDocx()).filter((entry) => entry.name !== 'word/_rels/document.xml.rels'), { name: 'word/_rels/document.xml.rels', content: rels(documentRels) }]);
  const image = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';

  it('drops file: targets (any case, any spacing, entity-encoded) and keeps web links and the package’s own parts', () => {
    const docx = docxWith(
      `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
        `<Relationship Id="rId2" Type="${image}" Target="file:///etc/secret.png" TargetMode="External"/>` +
        `<Relationship Id="rId3" Type="${image}" Target=" FILE://../secret.png" TargetMode="external"/>` +
        `<Relationship Id="rId4" Type="${image}" Target="&#102;ile:///etc/secret.png" TargetMode="External"></Relationship>` +
        `<Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.org/" TargetMode="External"/>`,
    );
    const path = join(dir, 'cleaned.docx');
    writeFileSync(path, withoutLocalFileLinks(docx, { maxEntries: 100 })!);
    execFileSync('unzip', ['-tq', path]);
    const cleanedRels = zipText(path, 'word/_rels/document.xml.rels');
    expect(cleanedRels).not.toMatch(/secret|rId2|rId3|rId4/);
    expect(cleanedRels).toContain('https://example.org/');
    expect(cleanedRels).toContain('styles.xml');
    expect(zipText(path, 'word/document.xml')).toContain(SAMPLE_HEADING);
  });

  it('returns nothing to change for a package without them', () => {
    expect(withoutLocalFileLinks(sampleDocx(), { maxEntries: 100 })).toBeUndefined();
  });
});

describe('replaceZipEntries', () => {
  it('rewrites one entry of a ZIP with data descriptors and copies the rest byte for byte', () => {
    const source = join(dir, 'descriptors.zip');
    // Written to a pipe, Python's zipfile cannot seek back: every entry gets a data descriptor.
    const bytes = execFileSync('/usr/bin/python3', ['-c', 'import sys, zipfile\nwith zipfile.ZipFile(sys.stdout.buffer, "w", zipfile.ZIP_DEFLATED) as z:\n  z.writestr("a.txt", "alpha" * 100)\n  z.writestr("b.txt", "beta" * 100)\n']);
    writeFileSync(source, bytes);
    const rewritten = join(dir, 'rewritten.zip');
    writeFileSync(rewritten, replaceZipEntries(bytes, new Map([['a.txt', Buffer.from('replaced')]])));
    execFileSync('unzip', ['-tq', rewritten]);
    expect(zipEntries(rewritten)).toEqual(['a.txt', 'b.txt']);
    expect(zipText(rewritten, 'a.txt')).toBe('replaced');
    expect(zipText(rewritten, 'b.txt')).toBe('beta'.repeat(100));
  });
});

describe('SVG images of a book: only its own', () => {
  const entries = new Set(['OEBPS/chapter.xhtml', 'OEBPS/images/cover.png']);
  const svg = (href: string) => Buffer.from(`<html><body><svg:svg><svg:image width="1" height="1" xlink:href="${href}"/></svg:svg></body></html>`);

  it.each(['images/cover.png', 'data:image/png;base64,AAAA', '#inside', ' images/cover.png '])('accepts %s', (href) => {
    expect(outsideSvgImage('OEBPS/chapter.xhtml', svg(href), entries)).toBeUndefined();
  });

  it.each(['/etc/secret.png', 'file:///etc/secret.png', '../../secret.png', 'images/missing.png', '&#47;etc/secret.png', '%2e%2e/%2e%2e/secret.png', 'http://example.org/x.png', '&unknown;'])('refuses %s', (href) => {
    expect(outsideSvgImage('OEBPS/chapter.xhtml', svg(href), entries)).toBeDefined();
  });

  it('reads UTF-16 markup, and refuses an encoding it cannot read', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(svg('/etc/secret.png').toString(), 'utf16le')]);
    expect(outsideSvgImage('OEBPS/chapter.xhtml', utf16, entries)).toBe('/etc/secret.png');
    const utf7 = Buffer.from('<?xml version="1.0" encoding="UTF-7"?><html>+ADw-image xlink:href="/etc/secret.png"/+AD4-</html>');
    expect(outsideSvgImage('OEBPS/chapter.xhtml', utf7, entries)).toBeDefined();
    expect(outsideSvgImage('OEBPS/chapter.xhtml', Buffer.from('<html><meta charset="Shift_JIS"/><p>text</p></html>'), entries)).toBeUndefined();
  });

  it('in a Mobipocket book, accepts the book’s own (kindle:embed) and refuses any path', () => {
    expect(outsideMobiSvgImage('<svg><image xlink:href="kindle:embed:0001?mime=image/png"/></svg>')).toBeUndefined();
    expect(outsideMobiSvgImage('<svg><image xlink:href="../../secret.png"/></svg>')).toBe('../../secret.png');
  });
});

describe('mobiText: the text calibre reads from a MOBI or an AZW3', () => {
  it('reads a hand-written MOBI 6 and an AZW3 (KF8, PalmDOC) calibre wrote', () => {
    expect(mobiText(sampleMobi(), 1024 * 1024).join('')).toContain(SAMPLE_HEADING);
    const epub = join(dir, 'book.epub');
    writeFileSync(epub, sampleEpub());
    expect(mobiText(readFileSync(writeAzw3Sample(epub, dir)), 16 * 1024 * 1024).join('')).toContain(SAMPLE_HEADING);
  });
});

describe('the LibreOffice bridge’s file guard (uno-bridge.py): which paths soffice may open', () => {
  // The guard's own functions, run by Debian's Python (the bridge imports uno: python3-uno is a test requirement).
  const verdicts = (urls: readonly string[]): boolean[] => {
    const script = [
      'import importlib.util, json, sys',
      `spec = importlib.util.spec_from_file_location("uno_bridge", ${JSON.stringify(UNO_BRIDGE_SCRIPT)})`,
      'bridge = importlib.util.module_from_spec(spec); spec.loader.exec_module(bridge)',
      'places = bridge.OfficePlaces(["/usr/lib/libreoffice/program/soffice", "-env:UserInstallation=file:///w/lo-1/profile"], "/w/lo-1/tmp")',
      'conversion = ("/w/lo-1/exchange/input-a.html", "/w/lo-1/exchange/output.odt")',
      'paths = [bridge.file_url_path(url) for url in json.loads(sys.argv[1])]',
      'print(json.dumps([path is not None and bridge.file_permitted(path, conversion, places) for path in paths]))',
    ].join('\n');
    return JSON.parse(execFileSync('/usr/bin/python3', ['-I', '-B', '-c', script, JSON.stringify(urls)], { encoding: 'utf8' })) as boolean[];
  };

  it('serves the conversion’s files and LibreOffice’s own', () => {
    const own = [
      'file:///w/lo-1/exchange/input-a.html',
      'file:///w/lo-1/exchange/output.odt',
      'file:///w/lo-1/exchange/output.odt/content.xml',
      'file:///w/lo-1/exchange/lu12ab.tmp',
      'file:///w/lo-1/exchange',
      'file:///w/lo-1/tmp/lu1x.tmp/lu2y.tmp',
      'file:///w/lo-1/profile/user/basic/script.xlc',
      'file:///usr/lib/libreoffice/share/basic/Tools/',
      'file://localhost/w/lo-1/exchange/input-a.html',
    ];
    expect(verdicts(own)).toEqual(own.map(() => true));
  });

  it('refuses whatever else a document names: beside the input, in the temporary directory, climbing, encoded, elsewhere', () => {
    const named = [
      'file:///w/lo-1/exchange/canary.png',
      'file:///w/lo-1/tmp/canary.png',
      'file:///w/lo-1/tmp/lu1x.tmp/canary.png',
      'file:///w/lo-1/profile/user/../../exchange/canary.png',
      'file:///usr/lib/libreoffice/../../../w/job/canary.png',
      'file:///usr/lib/libreoffice/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      'file:///w/lo-1/profile/user/registrymodifications.xcu/../../../../etc/passwd',
      'file:///proc/self/cwd/tmp/canary.png',
      'file:///etc/passwd',
      'file://otherhost/w/lo-1/exchange/input-a.html',
      'vnd.sun.star.pkg://file:%2F%2F%2Fetc%2Fsecret.odt/content.xml',
    ];
    expect(verdicts(named)).toEqual(named.map(() => false));
  });
});

function unzipAll(bytes: Buffer): Array<{ name: string; content: Buffer }> {
  const path = join(dir, `unzip-${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(path, bytes);
  return zipEntries(path).map((name) => ({ name, content: execFileSync('unzip', ['-p', path, name.replace(/[[\]*?]/g, '\\$&')]) }));
}
