import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type FormatEnum } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionGraph } from '../../platform/conversion-graph.js';
import { plansTaking } from '../../platform/conversion-plan.js';
import { NodeHostPool } from '../../platform/node-host/node-host.pool.js';
import { readZipEntries } from '../../shared/zip-entries.js';
import { ENGINE_DESCRIPTORS } from '../engines.js';
import { validateOptions } from '../option-catalogue.js';
import { countTagLine, removedTags, removedTagsNote } from './exiftool-tags.js';
import { stripOfficeMetadata } from './office-metadata.js';
import { ConversionError } from '../../platform/conversion-error.js';
import { EXIFTOOL_DESCRIPTOR } from './exiftool.descriptor.js';
import { ExiftoolRuntime } from './exiftool.runtime.js';
import { handPdf, odf, pdfInfo, qpdfEncrypted, reportMissingEngine, SAMPLE_HEADING, sampleDocx, sampleXlsx, zip, zipEntries, zipText } from '../../../testing/index.js';
import { decodePixels } from '../../../testing/pixel-checks.js';
import { expectFailure, testContext } from '../../../test/support/test-context.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-exiftool-'));
const host = new NodeHostPool({ size: 1 });
const runtime = new ExiftoolRuntime(undefined, host);
afterAll(async () => {
  await host.stop();
  rmSync(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  const probe = await runtime.probe();
  if (!probe.available) reportMissingEngine('exiftool', probe.problem, EXIFTOOL_DESCRIPTOR.debianPackages);
});

const NAME = 'Jane Quokka';
const TITLE = 'Secret Title Zebra';
let steps = 0;

/** Runs one step; its output and notes. */
async function step(inputPath: string, format: string, options: Parameters<ExiftoolRuntime['convert']>[0]['options'] = { strip_metadata: true }) {
  const outputDir = join(dir, `step-${++steps}`);
  execFileSync('mkdir', [outputDir]);
  const outcome = await runtime.convert({ inputPath, outputDir, from: format, to: format, options }, testContext(runtime, dir));
  expect(outcome.files).toHaveLength(1);
  return { output: outcome.files[0]!, notes: outcome.notes ?? [] };
}

/** exiftool (run here, not through the runtime) as the reader: every tag, by family 1 group. */
const tagsOf = (path: string): Record<string, unknown> => JSON.parse(execFileSync('exiftool', ['-j', '-G1', '-a', path], { encoding: 'utf8' }))[0];
const exiftoolWrite = (path: string, args: string[]) => execFileSync('exiftool', ['-q', '-overwrite_original', ...args, path]);
const PERSONAL_TAGS = ['-Make=Canon', '-Model=EOS 5D', `-Artist=${NAME}`, '-GPSLatitude=48.8566', '-GPSLatitudeRef=N', '-GPSLongitude=2.3522', '-GPSLongitudeRef=E', `-XMP-dc:Creator=${NAME}`];

/** A picture of each format sharp writes, with a colour profile, then EXIF, GPS and XMP written into it by exiftool. */
async function picture(format: string, orientation?: number): Promise<string> {
  const path = join(dir, `photo-${++steps}.${format}`);
  const width = 48;
  const height = 32;
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 37) % 256;
  let image = sharp(raw, { raw: { width, height, channels: 3 } }).toFormat(format as keyof FormatEnum).withIccProfile('p3');
  if (orientation) image = image.withMetadata({ orientation });
  await image.toFile(path);
  exiftoolWrite(path, [...PERSONAL_TAGS, ...(format === 'jpg' ? ['-Comment=taken at home'] : [])]);
  return path;
}

/** The stored pixels, as sharp decodes them (no orientation applied: the bytes exiftool must not touch). */
const rawPixels = (path: string) => sharp(path).raw().toBuffer();

describe('ExiftoolRuntime (Debian packages libimage-exiftool-perl, qpdf, poppler-utils)', () => {
  it('is installed on this machine', async () => {
    const probe = await runtime.probe();
    expect(probe.problem).toBeUndefined();
    expect(probe.version).toMatch(/^exiftool \d+\.\d+/);
  });

  it('removes EXIF, GPS, XMP and the comment of a JPEG, keeping its pixels, colour profile and orientation, and says what it removed', async () => {
    const input = await picture('jpg', 6);
    expect(tagsOf(input)).toMatchObject({ 'IFD0:Make': 'Canon', 'GPS:GPSLatitudeRef': 'North' });
    const { output, notes } = await step(input, 'jpg');

    const tags = tagsOf(output);
    expect(Object.keys(tags).filter((key) => key.startsWith('GPS:'))).toEqual([]);
    for (const key of ['IFD0:Make', 'IFD0:Model', 'IFD0:Artist', 'XMP-dc:Creator', 'File:Comment']) expect(tags).not.toHaveProperty(key);
    expect(readFileSync(output).includes(NAME)).toBe(false);
    expect(tags['IFD0:Orientation']).toBe('Rotate 90 CW');
    expect((await sharp(output).metadata()).orientation).toBe(6);
    expect(tags['ICC_Profile:ProfileDescription']).toBe(tagsOf(input)['ICC_Profile:ProfileDescription']);
    expect((await rawPixels(output)).equals(await rawPixels(input))).toBe(true);

    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^removed (?=.*\b\d+ EXIF tags?\b)(?=.*\b5 GPS tags\b)(?=.*\b\d+ XMP tags?\b)(?=.*\b1 comment tag\b)/);
    expect(notes[0]).not.toMatch(/Canon|Quokka|48/);
  });

  for (const format of ['png', 'webp', 'tiff', 'avif', 'gif'] as const) {
    it(`removes the metadata of a ${format} without touching its pixels`, async () => {
      const input = await picture(format);
      expect(JSON.stringify(tagsOf(input))).toContain(NAME);
      const { output, notes } = await step(input, format);
      const tags = tagsOf(output);
      expect(JSON.stringify(tags)).not.toContain(NAME);
      expect(Object.keys(tags).filter((key) => /^(GPS|XMP-dc):|:(Make|Model|Artist)$/.test(key))).toEqual([]);
      if (format !== 'gif') expect(tags['ICC_Profile:ProfileDescription']).toBe(tagsOf(input)['ICC_Profile:ProfileDescription']);
      expect((await rawPixels(output)).equals(await rawPixels(input))).toBe(true);
      expect(notes[0]).toMatch(/^removed \d+/);
    });
  }

  it('removes the metadata of a HEIC picture (ImageMagick writes it, libheif decodes it)', async () => {
    const input = join(dir, 'photo.heic');
    execFileSync('convert', ['-size', '40x30', 'gradient:red-blue', `HEIC:${input}`]);
    exiftoolWrite(input, PERSONAL_TAGS);
    const { output, notes } = await step(input, 'heic');
    expect(JSON.stringify(tagsOf(output))).not.toContain(NAME);
    expect(Object.keys(tagsOf(output)).filter((key) => key.startsWith('GPS:'))).toEqual([]);
    expect(decodePixels(output).rgba.equals(decodePixels(input).rgba)).toBe(true);
    expect(notes[0]).toMatch(/GPS tags/);
  });

  it('says so when a picture had nothing to remove', async () => {
    const input = join(dir, 'plain.png');
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toFile(input);
    const { notes } = await step(input, 'png');
    expect(notes).toEqual(['found no metadata to remove']);
  });

  it('refuses a file that is not the picture it claims to be', async () => {
    const input = join(dir, 'not-a-picture.jpg');
    writeFileSync(input, 'plain text, not a JPEG');
    await expectFailure(step(input, 'jpg'), 'unsupported_or_corrupt_input', dir);
  });

  describe('PDF', () => {
    /** A hand-written PDF (its objects uncompressed, so any old value left would show in the bytes) with document information and XMP. */
    function pdfWithMetadata(name: string): string {
      const path = handPdf(dir, name, ['Hello metadata'], { title: TITLE });
      exiftoolWrite(path, [`-PDF:Author=${NAME}`, '-PDF:Creator=Writer Walrus', `-XMP-dc:Creator=${NAME}`, `-XMP-dc:Title=${TITLE}`]);
      // exiftool's own edit is incremental: the old values are still in the file, and qpdf writes them out again.
      copyFileSync(path, `${path}.flat.pdf`);
      execFileSync('qpdf', [`${path}.flat.pdf`, path]);
      expect(pdfInfo(path)).toMatch(new RegExp(`^Author:\\s+${NAME}$`, 'm'));
      return path;
    }

    it('removes the document information and XMP: pdfinfo finds no author or title, and no old value is left in the bytes', async () => {
      const input = pdfWithMetadata('with-metadata');
      const { output, notes } = await step(input, 'pdf');
      const info = pdfInfo(output);
      expect(info).not.toMatch(/^(Author|Title|Creator):/m);
      expect(info).toMatch(/^Metadata Stream:\s+no$/m);
      expect(info).toMatch(/^Pages:\s+1$/m);
      const bytes = readFileSync(output).toString('latin1');
      for (const old of [NAME, 'Quokka', 'Zebra', 'Walrus']) expect(bytes).not.toContain(old);
      // And none in any object qpdf can find, uncompressed.
      const qdf = join(dir, 'stripped-qdf.pdf');
      execFileSync('qpdf', ['--qdf', '--object-streams=disable', '--preserve-unreferenced', output, qdf]);
      expect(readFileSync(qdf).toString('latin1')).not.toContain('Quokka');
      expect(execFileSync('pdftotext', [output, '-'], { encoding: 'utf8' })).toContain('Hello metadata');
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(/^removed (?=.*\b\d+ PDF document information tags\b)(?=.*\b\d+ XMP tags?\b)/);
    });

    it('sets the title, author, subject and keywords (metadata): pdfinfo shows them, the old ones are gone', async () => {
      const input = pdfWithMetadata('to-set');
      const metadata = { title: 'Quarterly report — Zoë 日本', author: '-@ /etc/passwd', subject: 'Figures = results', keywords: 'report, 2025' };
      const { output, notes } = await step(input, 'pdf', { metadata });
      const info = pdfInfo(output);
      expect(info).toMatch(/^Title:\s+Quarterly report — Zoë 日本$/m);
      expect(info).toMatch(/^Author:\s+-@ \/etc\/passwd$/m);
      expect(info).toMatch(/^Subject:\s+Figures = results$/m);
      expect(info).toMatch(/^Keywords:\s+report, 2025$/m);
      // Other information stays: only the four fields are set.
      expect(info).toMatch(/^Creator:\s+Writer Walrus$/m);
      const xmp = tagsOf(output);
      expect(xmp).toMatchObject({ 'XMP-dc:Title': metadata.title, 'XMP-dc:Creator': metadata.author, 'XMP-dc:Description': metadata.subject, 'XMP-pdf:Keywords': metadata.keywords });
      const bytes = readFileSync(output).toString('latin1');
      for (const old of ['Quokka', 'Zebra']) expect(bytes).not.toContain(old);
      expect(notes).toEqual(['set the title, the author, the subject, the keywords']);
    });

    it('removes everything else and sets what is asked when both options come', async () => {
      const input = pdfWithMetadata('both');
      const { output, notes } = await step(input, 'pdf', { strip_metadata: true, metadata: { title: 'Clean title' } });
      const info = pdfInfo(output);
      expect(info).toMatch(/^Title:\s+Clean title$/m);
      expect(info).not.toMatch(/^(Author|Creator):/m);
      expect(readFileSync(output).toString('latin1')).not.toMatch(/Quokka|Walrus|Zebra/);
      expect(notes[0]).toMatch(/^removed /);
      expect(notes[1]).toBe('set the title');
    });

    it('keeps the identification of a PDF/A (pdfaid) and nothing else of its XMP', async () => {
      const input = handPdf(dir, 'pdfa', ['Archived']);
      const xmp = join(dir, 'pdfa.xmp');
      writeFileSync(
        xmp,
        `<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>` +
          `<rdf:Description rdf:about='' xmlns:pdfaid='http://www.aiim.org/pdfa/ns/id/'><pdfaid:part>2</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>` +
          `<rdf:Description rdf:about='' xmlns:own='http://example.com/own/'><own:owner>${NAME}</own:owner></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end='w'?>`,
      );
      exiftoolWrite(input, [`-xmp<=${xmp}`]);
      expect(tagsOf(input)).toMatchObject({ 'XMP-pdfaid:Part': 2, 'XMP-own:Owner': NAME });
      const { output } = await step(input, 'pdf');
      const tags = tagsOf(output);
      expect(tags).toMatchObject({ 'XMP-pdfaid:Part': 2, 'XMP-pdfaid:Conformance': 'B' });
      expect(JSON.stringify(tags)).not.toContain(NAME);
    });

    it('keeps an encryption that opens without a password; refuses a password or a ban on changes', async () => {
      const input = pdfWithMetadata('to-encrypt');
      const open = qpdfEncrypted(input, join(dir, 'owner-only.pdf'), '');
      const { output } = await step(open, 'pdf');
      expect(pdfInfo(output)).not.toMatch(/^Author:/m);
      expect(execFileSync('qpdf', ['--show-encryption', output], { encoding: 'utf8' })).toMatch(/^R = 6$/m);

      await expectFailure(step(qpdfEncrypted(input, join(dir, 'user-password.pdf'), 'user-secret'), 'pdf'), 'security_rejected', dir);
      await expectFailure(step(qpdfEncrypted(input, join(dir, 'no-changes.pdf'), '', ['--modify=none']), 'pdf'), 'security_rejected', dir);
    });
  });

  describe('office documents', () => {
    const CORE =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
      `<dc:title>${TITLE}</dc:title><dc:creator>${NAME}</dc:creator><cp:lastModifiedBy>John Wombat</cp:lastModifiedBy><cp:revision>7</cp:revision>` +
      `<dcterms:created xsi:type="dcterms:W3CDTF">2024-01-02T03:04:05Z</dcterms:created></cp:coreProperties>`;
    const APP =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">` +
      `<Application>Microsoft Office Word</Application><Pages>1</Pages><Company>Acme Secret Labs</Company><TotalTime>42</TotalTime></Properties>`;
    const CUSTOM =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` +
      `<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Client"><vt:lpwstr>Project Platypus</vt:lpwstr></property></Properties>`;
    const PACKAGE_RELS =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="MAIN"/>` +
      `<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>` +
      `<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>` +
      `<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties" Target="/docProps/custom.xml"/></Relationships>`;

    /** An OOXML sample of office-samples.ts with its properties, and `extra` parts (replacing those of the same name). */
    function withProperties(sample: Buffer, main: string, extra: Record<string, string | Buffer> = {}): Buffer {
      const parts = readZipEntries(sample, () => true, { maxEntries: 100, maxInflatedBytes: 10_000_000 });
      const all = new Map<string, string | Buffer>([...parts, ['_rels/.rels', PACKAGE_RELS.replace('MAIN', main)], ['docProps/core.xml', CORE], ['docProps/app.xml', APP], ['docProps/custom.xml', CUSTOM], ...Object.entries(extra)]);
      return zip([...all].map(([name, content]) => ({ name, content })));
    }

    const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

    it('DOCX: removes the properties, renames comment and change authors, cleans its pictures; the text stays', async () => {
      const sample = sampleDocx();
      const document = readZipEntries(sample, (name) => name === 'word/document.xml', { maxEntries: 100, maxInflatedBytes: 1_000_000 }).get('word/document.xml')!.toString('utf8');
      const tracked = `<w:p><w:ins w:id="1" w:author="${NAME}" w:date="2024-01-02T03:04:05Z"><w:r><w:t>An inserted sentence.</w:t></w:r></w:ins></w:p>`;
      const photo = await picture('jpg');
      const input = join(dir, 'with-metadata.docx');
      writeFileSync(
        input,
        withProperties(sample, 'word/document.xml', {
          'word/document.xml': document.replace('<w:body>', `<w:body>${tracked}`),
          'word/comments.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:comments ${W}><w:comment w:id="0" w:author="${NAME}" w:date="2024-01-02T03:04:05Z" w:initials="JQ"><w:p><w:r><w:t>Check this</w:t></w:r></w:p></w:comment></w:comments>`,
          'word/media/image1.jpeg': readFileSync(photo),
        }),
      );
      expect(zipText(input, 'docProps/core.xml')).toContain(NAME);

      const { output, notes } = await step(input, 'docx');
      expect(execFileSync('unzip', ['-tq', output], { encoding: 'utf8' })).toMatch(/No errors/);
      const core = zipText(output, 'docProps/core.xml');
      expect(core).not.toMatch(/creator|Quokka|Wombat|Zebra|2024/);
      expect(core).toMatch(/<cp:coreProperties [^>]*xmlns:cp=/);
      const app = zipText(output, 'docProps/app.xml');
      expect(app).not.toMatch(/Acme|Company|TotalTime|Application/);
      expect(app).toContain('<Pages>1</Pages>');
      expect(zipText(output, 'docProps/custom.xml')).not.toContain('Platypus');
      const body = zipText(output, 'word/document.xml');
      expect(body).toContain(SAMPLE_HEADING);
      expect(body).toContain('An inserted sentence.');
      expect(body).toContain('w:author="Author"');
      expect(body).not.toMatch(/Quokka|w:date=/);
      const comments = zipText(output, 'word/comments.xml');
      expect(comments).toContain('Check this');
      expect(comments).not.toMatch(/Quokka|JQ/);
      // The picture inside, read back by exiftool: no GPS, no camera, same pixels.
      const inside = join(dir, 'inside.jpg');
      writeFileSync(inside, execFileSync('unzip', ['-p', output, 'word/media/image1.jpeg']));
      expect(Object.keys(tagsOf(inside)).filter((key) => /^GPS:|:Make$|:Model$/.test(key))).toEqual([]);
      expect((await rawPixels(inside)).equals(await rawPixels(photo))).toBe(true);
      // Entries not rewritten are copied as they were.
      expect(zipText(output, 'word/styles.xml')).toBe(zipText(input, 'word/styles.xml'));

      expect(notes[0]).toBe('removed the title, the author, the last modifier, the revision number, the creation date, the application, the company, the editing time, the custom properties');
      expect(notes[1]).toBe('replaced 1 name of comment or change authors with "Author"');
      expect(notes[2]).toMatch(/^removed (?=.*\bGPS tags\b).* from 1 picture$/);
    });

    it('XLSX: removes the properties and renames the comments\' authors', async () => {
      const comments = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>${NAME}</author></authors><commentList><comment ref="A1" authorId="0"><text><t>Note</t></text></comment></commentList></comments>`;
      const input = join(dir, 'with-metadata.xlsx');
      writeFileSync(input, withProperties(sampleXlsx(), 'xl/workbook.xml', { 'xl/comments1.xml': comments }));
      const { output, notes } = await step(input, 'xlsx');
      expect(zipText(output, 'docProps/core.xml')).not.toContain(NAME);
      expect(zipText(output, 'xl/comments1.xml')).toContain('<author>Author</author>');
      expect(zipText(output, 'xl/worksheets/sheet1.xml')).toContain('alpha');
      expect(notes[0]).toMatch(/^removed the title, the author, the last modifier/);
    });

    it('PPTX: removes the properties and renames the comment authors', async () => {
      const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
      const slides = zip([{ name: 'ppt/presentation.xml', content: `<p:presentation ${P}/>` }, { name: 'ppt/slides/slide1.xml', content: `<p:sld ${P}><p:cSld><p:spTree><a:t>${SAMPLE_HEADING}</a:t></p:spTree></p:cSld></p:sld>` }]);
      const input = join(dir, 'with-metadata.pptx');
      writeFileSync(input, withProperties(slides, 'ppt/presentation.xml', { 'ppt/commentAuthors.xml': `<p:cmAuthorLst ${P}><p:cmAuthor id="0" name="${NAME}" initials="JQ" lastIdx="1" clrIdx="0"/></p:cmAuthorLst>` }));
      const { output, notes } = await step(input, 'pptx');
      expect(zipText(output, 'ppt/commentAuthors.xml')).toBe(`<p:cmAuthorLst ${P}><p:cmAuthor id="0" name="Author" initials="A" lastIdx="1" clrIdx="0"/></p:cmAuthorLst>`);
      expect(zipText(output, 'ppt/slides/slide1.xml')).toContain(SAMPLE_HEADING);
      expect(zipText(output, 'docProps/app.xml')).not.toContain('Acme');
      expect(notes[1]).toBe('replaced 1 name of comment or change authors with "Author"');
    });

    const META =
      `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.3"><office:meta>` +
      `<meta:initial-creator>${NAME}</meta:initial-creator><dc:creator>John Wombat</dc:creator><meta:creation-date>2024-01-02T03:04:05</meta:creation-date><meta:generator>LibreOffice/7.4</meta:generator>` +
      `<meta:editing-duration>PT1H</meta:editing-duration><meta:user-defined meta:name="Client">Project Platypus</meta:user-defined><meta:document-statistic meta:page-count="1"/></office:meta></office:document-meta>`;
    const SETTINGS =
      `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-settings xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:config="urn:oasis:names:tc:opendocument:xmlns:config:1.0"><office:settings><config:config-item-set config:name="ooo:configuration-settings">` +
      `<config:config-item config:name="PrinterName" config:type="string">Quokka LaserJet</config:config-item></config:config-item-set></office:settings></office:document-settings>`;

    for (const [format, kind, body] of [
      ['odt', 'text', `<text:p>${SAMPLE_HEADING}</text:p>`],
      ['ods', 'spreadsheet', `<table:table table:name="Sheet1"><table:table-row><table:table-cell office:value-type="string"><text:p>${SAMPLE_HEADING}</text:p></table:table-cell></table:table-row></table:table>`],
      ['odp', 'presentation', `<draw:page draw:name="p1"><draw:frame><draw:text-box><text:p>${SAMPLE_HEADING}</text:p></draw:text-box></draw:frame></draw:page>`],
    ] as const) {
      it(`${format.toUpperCase()}: keeps meta.xml's statistics only and forgets the printer`, async () => {
        const input = join(dir, `with-metadata.${format}`);
        writeFileSync(input, odf(kind, body, { files: [{ name: 'meta.xml', content: META }, { name: 'settings.xml', content: SETTINGS }] }));
        const { output, notes } = await step(input, format);
        expect(zipEntries(output)[0]).toBe('mimetype');
        const meta = zipText(output, 'meta.xml');
        expect(meta).not.toMatch(/Quokka|Wombat|Platypus|LibreOffice|2024|PT1H/);
        expect(meta).toContain('<meta:document-statistic meta:page-count="1"/>');
        expect(zipText(output, 'settings.xml')).not.toContain('Quokka');
        expect(zipText(output, 'content.xml')).toContain(SAMPLE_HEADING);
        expect(notes).toEqual(['removed the author, the last modifier, the creation date, the application, the editing time, the custom properties, the printer name']);
      });
    }

    it('refuses a password-protected ODF package, and a file that is no package', async () => {
      const manifest = `<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"/></manifest:file-entry></manifest:manifest>`;
      const encrypted = join(dir, 'encrypted.odt');
      writeFileSync(encrypted, zip([{ name: 'mimetype', content: 'application/vnd.oasis.opendocument.text', store: true }, { name: 'META-INF/manifest.xml', content: manifest }, { name: 'content.xml', content: 'encrypted bytes' }]));
      await expectFailure(step(encrypted, 'odt'), 'security_rejected', dir);
      const notZip = join(dir, 'not-a-package.docx');
      writeFileSync(notZip, 'plain text');
      await expectFailure(step(notZip, 'docx'), 'unsupported_or_corrupt_input', dir);
    });
  });
});

describe('the options and plans of exiftool', () => {
  it('metadata: one line of at most 1000 characters each, at least one field, no other key', () => {
    expect(validateOptions({ metadata: { title: 'Report', keywords: 'a, b' } }, ['metadata'])).toEqual({ ok: true, options: { metadata: { title: 'Report', keywords: 'a, b' } } });
    for (const metadata of [{ title: 'Report\n-all=' }, { author: 'a\rb' }, { subject: 'tab\there' }, {}, { title: 'x'.repeat(1001) }, { title: 'x', producer: 'y' }, { title: '  ' }]) {
      const validation = validateOptions({ metadata }, ['metadata']);
      expect(validation.ok, JSON.stringify(metadata)).toBe(false);
    }
  });

  it('is chosen only by its options: jpg → jpg stays sharp\'s and pdf → pdf Ghostscript\'s', () => {
    const graph = new ConversionGraph(ENGINE_DESCRIPTORS);
    const last = (from: string, asked: string[]) => plansTaking(graph.plans(from, from), asked)[0]?.steps.at(-1)?.engine;
    expect(last('jpg', [])).toBe('sharp');
    expect(last('pdf', [])).toBe('ghostscript');
    expect(last('jpg', ['strip_metadata'])).toBe('exiftool');
    expect(last('pdf', ['strip_metadata'])).toBe('exiftool');
    expect(last('pdf', ['metadata'])).toBe('exiftool');
    expect(last('docx', ['strip_metadata'])).toBe('exiftool');
    expect(last('docx', [])).toBeUndefined();
  });
});

describe('exiftool tag counts (pure)', () => {
  it('counts the tags that went, by kind, from exiftool -G0:1 -a -s -s listings', () => {
    const list = (lines: string[]) => {
      const counts = new Map<string, number>();
      for (const line of lines) countTagLine(line, counts);
      return counts;
    };
    const before = list([
      '[ExifTool] ExifToolVersion: 12.57',
      '[File:System] FileName: a.jpg',
      '[File] Comment: at home',
      '[EXIF:IFD0] Make: Canon',
      '[EXIF:IFD0] Orientation: Rotate 90 CW',
      '[EXIF:GPS] GPSLatitude: 48 deg',
      '[EXIF:GPS] GPSLongitude: 2 deg',
      '[XMP:XMP-dc] Description: line1.[EXIF:GPS] Fake: x',
      '[Composite] GPSPosition: 48, 2',
    ]);
    const after = list(['[EXIF:IFD0] Orientation: Rotate 90 CW']);
    const removed = removedTags(before, after);
    expect(Object.fromEntries(removed)).toEqual({ comment: 1, EXIF: 1, GPS: 2, XMP: 1 });
    expect(removedTagsNote(removed)).toBe('removed 2 GPS tags, 1 comment tag, 1 EXIF tag, 1 XMP tag');
    expect(removedTagsNote(new Map())).toBe('found no metadata to remove');
  });
});

describe('office metadata (pure)', () => {
  const RELS = `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`;
  const LIMITS = { maxEntries: 100, maxExpandedBytes: 1_000_000 };
  const docx = (parts: Record<string, string>) => zip(Object.entries({ '_rels/.rels': RELS, ...parts }).map(([name, content]) => ({ name, content })));
  const text = (pkg: Buffer, name: string) => readZipEntries(pkg, (entry) => entry === name, { maxEntries: 100, maxInflatedBytes: 1_000_000 }).get(name)!.toString('utf8');

  it('renames authors inside start tags only, whatever the quotes, never in the text', () => {
    const document = `<w:document xmlns:w="w"><w:body><w:p><w:ins w:id="1" w:author='Jane > Doe' w:date="2024-01-01T00:00:00Z"><w:r><w:t>w:author="Jane" stays text</w:t></w:r></w:ins></w:p></w:body></w:document>`;
    const { package: cleaned, notes } = stripOfficeMetadata(docx({ 'word/document.xml': document }), 'docx', LIMITS);
    expect(text(cleaned, 'word/document.xml')).toBe(`<w:document xmlns:w="w"><w:body><w:p><w:ins w:id="1" w:author="Author"><w:r><w:t>w:author="Jane" stays text</w:t></w:r></w:ins></w:p></w:body></w:document>`);
    expect(notes).toEqual(['replaced 1 name of comment or change authors with "Author"']);
  });

  it('refuses a property part that declares a DOCTYPE, and goes as it is when there is nothing to remove', () => {
    const doctype = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "Jane">]><cp:coreProperties xmlns:cp="cp"><dc:creator xmlns:dc="dc">&a;</dc:creator></cp:coreProperties>`;
    const refusal = (() => {
      try {
        stripOfficeMetadata(docx({ 'docProps/core.xml': doctype }), 'docx', LIMITS);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ConversionError);
    expect((refusal as ConversionError).failureType).toBe('security_rejected');
    const plain = docx({ 'docProps/core.xml': '<cp:coreProperties xmlns:cp="cp"/>', 'word/document.xml': '<w:document xmlns:w="w"/>' });
    const outcome = stripOfficeMetadata(plain, 'docx', LIMITS);
    expect(outcome.package).toBe(plain);
    expect(outcome.notes).toEqual([]);
  });
});
