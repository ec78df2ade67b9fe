import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalibreRuntime } from './calibre.runtime.js';
import { CALIBRE_DESCRIPTOR, EBOOK_FORMATS } from './calibre.descriptor.js';
import { expectDocument, expectEbook, expectMarkup, readMobi, SAMPLE_HEADING, sampleDocx, sampleEpub, sampleFb2, sampleMobi, zip, zipEntries, zipText } from '../../../testing/index.js';
import { convertStep, expectFailure, leftovers } from '../../../test/support/test-context.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-calibre-'));
/** Outside any job's scratch directory: what hostile books try to read. */
const outside = mkdtempSync(join(tmpdir(), 'fileshift-calibre-outside-'));
const SECRET = 'FILESHIFT-SECRET-CANARY';
const secretFile = join(outside, 'secret.xhtml');
writeFileSync(secretFile, `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>${SECRET}</p></body></html>`);
let server: Server;
let requests = 0;
let origin = '';

beforeAll(async () => {
  server = createServer((_request, response) => {
    requests++;
    response.end(`p { color: red } /* ${SECRET} */`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  for (const path of [dir, outside]) rmSync(path, { recursive: true, force: true });
});

const write = (name: string, content: string | Buffer) => {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
};

/** An EPUB 2 whose package and chapter name files outside the book, by path, file URL and http URL. */
function hostileEpub(entries: Array<{ name: string; content: string }> = []): Buffer {
  const opf =
    `<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">` +
    `<dc:title>${SAMPLE_HEADING}</dc:title><dc:identifier id="id">x</dc:identifier><dc:language>en</dc:language></metadata><manifest>` +
    `<item id="c" href="chapter.xhtml" media-type="application/xhtml+xml"/><item id="up" href="../../../../../../../..${secretFile}" media-type="application/xhtml+xml"/>` +
    `<item id="abs" href="file://${secretFile}" media-type="application/xhtml+xml"/><item id="css" href="${origin}/remote.css" media-type="text/css"/></manifest>` +
    `<spine><itemref idref="c"/><itemref idref="up"/><itemref idref="abs"/></spine></package>`;
  const chapter =
    `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>c</title><link rel="stylesheet" href="${origin}/style.css"/></head>` +
    `<body><h1>${SAMPLE_HEADING}</h1><p>Text <img src="${origin}/picture.png"/><img src="${secretFile}"/><img src="../../../../../../..${secretFile}"/></p>` +
    `<iframe src="file://${secretFile}"></iframe><object data="${origin}/object"></object></body></html>`;
  return zip([
    { name: 'mimetype', content: 'application/epub+zip', store: true },
    { name: 'META-INF/container.xml', content: `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>` },
    { name: 'OEBPS/content.opf', content: opf },
    { name: 'OEBPS/chapter.xhtml', content: chapter },
    ...entries,
  ]);
}

/** Everything a book says, as text: EPUB and DOCX entries, MOBI/AZW3 text records, FB2 as it is. */
function bookText(path: string, format: string): string {
  if (format === 'mobi' || format === 'azw3') return readMobi(readFileSync(path)).text;
  if (format === 'fb2') return readFileSync(path, 'utf8');
  // unzip reads "[" as a wildcard: [Content_Types].xml holds no text anyway.
  return zipEntries(path).filter((entry) => !entry.includes('[')).map((entry) => zipText(path, entry)).join('\n');
}

describe('CalibreRuntime (Debian package calibre)', () => {
  const runtime = new CalibreRuntime();

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) console.error(`\n*** ENGINE MISSING: calibre (${probe.problem}). Install the Debian package calibre; these tests FAIL without it. ***\n`);
  });

  it('is installed on this machine', async () => {
    expect((await runtime.probe()).available).toBe(true);
  });

  it('offers no PDF, TXT, HTML or Markdown: those go through LibreOffice and pandoc', () => {
    const formats = new Set(CALIBRE_DESCRIPTOR.pairs.flatMap((pair) => [pair.from, pair.to]));
    for (const format of ['pdf', 'txt', 'html', 'md']) expect(formats.has(format)).toBe(false);
  });

  it('turns a hand-written MOBI into an EPUB 3 without a generated cover', async () => {
    const [epub] = (await convertStep(runtime, { inputPath: write('book.mobi', sampleMobi()), from: 'mobi', to: 'epub' }, dir)) as [string];
    expectMarkup(epub, 'epub', SAMPLE_HEADING);
    const opf = zipText(epub, zipEntries(epub).find((entry) => entry.endsWith('.opf'))!);
    expect(opf).toMatch(/<package[^>]*version="3\.0"/);
    expect(opf).not.toMatch(/cover/);
  });

  it.each(['mobi', 'azw3', 'fb2'])('writes %s from an EPUB, read back by our own reader', async (to) => {
    const [book] = (await convertStep(runtime, { inputPath: write('book.epub', sampleEpub()), from: 'epub', to }, dir)) as [string];
    expectEbook(book, to, SAMPLE_HEADING);
  });

  it('turns an FB2 into a DOCX, and a DOCX into every e-book format', async () => {
    const [docx] = (await convertStep(runtime, { inputPath: write('book.fb2', sampleFb2()), from: 'fb2', to: 'docx' }, dir)) as [string];
    expectDocument(docx, 'docx', SAMPLE_HEADING);
    for (const to of EBOOK_FORMATS) {
      const [book] = (await convertStep(runtime, { inputPath: write('report.docx', sampleDocx()), from: 'docx', to }, dir)) as [string];
      if (to === 'epub') expectMarkup(book, 'epub', SAMPLE_HEADING);
      else expectEbook(book, to, SAMPLE_HEADING);
    }
  });

  it('reports progress from calibre\'s stages, ending at 100', async () => {
    const progress: number[] = [];
    await convertStep(runtime, { inputPath: write('progress.fb2', sampleFb2()), from: 'fb2', to: 'epub' }, dir, { onProgress: (percent) => progress.push(percent) });
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(100);
  });

  describe('hostile books', () => {
    it.each(['mobi', 'azw3', 'fb2', 'docx'])('an EPUB naming files outside the book (paths, file: and http: URLs) becomes %s without any of them', async (to) => {
      requests = 0;
      const workDir = mkdtempSync(join(dir, 'work-'));
      const input = join(workDir, 'input');
      writeFileSync(input, hostileEpub());
      const [book] = (await convertStep(runtime, { inputPath: input, from: 'epub', to }, workDir)) as [string];
      expect(bookText(book, to)).toContain(SAMPLE_HEADING);
      expect(bookText(book, to)).not.toContain(SECRET);
      expect(requests).toBe(0);
      // Nothing beside the input and the output is left: calibre's temporary files went with the run.
      expect(leftovers(workDir, input, dirname(book))).toEqual([]);
    });

    it('an EPUB with a "../" entry is refused before calibre unpacks it', async () => {
      const input = write('climb.epub', hostileEpub([{ name: '../../escaped.txt', content: 'out' }]));
      await expectFailure(runtime.convert({ inputPath: input, outputDir: dir, from: 'epub', to: 'mobi', options: {} }, context()), 'security_rejected', dir);
    });

    it('an EPUB with an absolute entry is refused', async () => {
      const input = write('absolute.epub', hostileEpub([{ name: '/tmp/fileshift-absolute.txt', content: 'out' }]));
      await expectFailure(runtime.convert({ inputPath: input, outputDir: dir, from: 'epub', to: 'mobi', options: {} }, context()), 'security_rejected', dir);
    });

    it('a ZIP bomb named .epub is refused from its directory (64 MB of zeros in a few KB)', async () => {
      const input = write('bomb.epub', hostileEpub([{ name: 'OEBPS/zeros.xhtml', content: Buffer.alloc(64 * 1024 * 1024).toString() }]));
      const error = await expectFailure(runtime.convert({ inputPath: input, outputDir: dir, from: 'epub', to: 'azw3', options: {} }, context()), 'security_rejected', dir);
      expect(error.message).toMatch(/decompression bomb/);
    });

    it('an encrypted package is refused', async () => {
      const bytes = hostileEpub();
      // Sets "encrypted" on the last entry in the central directory.
      const central = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      bytes.writeUInt16LE(bytes.readUInt16LE(central + 8) | 1, central + 8);
      await expectFailure(runtime.convert({ inputPath: write('locked.epub', bytes), outputDir: dir, from: 'epub', to: 'fb2', options: {} }, context()), 'security_rejected', dir);
    });

    it('an FB2 with a DOCTYPE (an external entity) is refused before calibre reads it', async () => {
      const fb2 = sampleFb2().replace('<FictionBook', `<!DOCTYPE FictionBook [<!ENTITY leak SYSTEM "file://${secretFile}">]>\n<FictionBook`).replace('Another paragraph.', '&leak;');
      await expectFailure(runtime.convert({ inputPath: write('entity.fb2', fb2), outputDir: dir, from: 'fb2', to: 'epub', options: {} }, context()), 'security_rejected', dir);
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(fb2.replace('UTF-8', 'UTF-16'), 'utf16le')]);
      await expectFailure(runtime.convert({ inputPath: write('entity16.fb2', utf16), outputDir: dir, from: 'fb2', to: 'epub', options: {} }, context()), 'security_rejected', dir);
    });

    it('a MOBI locked with DRM fails as security_rejected', async () => {
      const locked = sampleMobi();
      // The PalmDOC header's encryption field (record 0, byte 12): 2 is Mobipocket's own DRM.
      locked.writeUInt16BE(2, locked.readUInt32BE(78) + 12);
      const error = await expectFailure(runtime.convert({ inputPath: write('locked.mobi', locked), outputDir: dir, from: 'mobi', to: 'epub', options: {} }, context()), 'security_rejected', dir);
      expect(error.message).toMatch(/DRM/);
    });

    it('bytes that are no book fail as unsupported or corrupt input, not as an engine fault', async () => {
      const noise = Buffer.alloc(4096, 7);
      await expectFailure(runtime.convert({ inputPath: write('noise.mobi', noise), outputDir: dir, from: 'mobi', to: 'epub', options: {} }, context()), 'unsupported_or_corrupt_input', dir);
      await expectFailure(runtime.convert({ inputPath: write('noise.epub', noise), outputDir: dir, from: 'epub', to: 'mobi', options: {} }, context()), 'unsupported_or_corrupt_input', dir);
    });
  });

  const context = () => ({ signal: new AbortController().signal, limits: CALIBRE_DESCRIPTOR.limits, workDir: dir });
});
