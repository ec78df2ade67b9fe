import { getFormat } from '@fileshift/formats';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { assessConversionCompatibility, detectFormat, suggestFilename } from '../src/index.js';

const hex = (value: string) => Buffer.from(value.replace(/\s+/g, ''), 'hex');
const text = (value: string) => Buffer.from(value, 'utf8');
const PNG = hex('89504e470d0a1a0a 0000000d49484452 0000000100000001 0806000000 1f15c489');

function zipEntry(name: string, content = '', { deflated = false, extra = Buffer.alloc(0) } = {}): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(deflated ? 8 : 0, 8);
  header.writeUInt16LE(Buffer.byteLength(name), 26);
  header.writeUInt16LE(extra.length, 28);
  return Buffer.concat([header, text(name), extra, deflated ? deflateRawSync(text(content)) : text(content)]);
}

const detect = (filename: string, header: Uint8Array, sizeBytes = 50_000) => detectFormat({ filename, sizeBytes, header });
const best = (filename: string, header: Uint8Array, sizeBytes?: number) => detect(filename, header, sizeBytes).best?.format.id;

describe('detectFormat', () => {
  it('reads magic numbers; the extension raises agreement', () => {
    const agreeing = detect('a.png', PNG);
    const silent = detect('a', PNG);
    expect(agreeing.best?.format.id).toBe('png');
    expect(agreeing.extensionMatches).toBe(true);
    expect(agreeing.best!.confidence).toBeGreaterThan(silent.best!.confidence - 0.0001);
  });

  it('detects the content when the extension is wrong, and says so', () => {
    const result = detect('holiday.jpg', PNG);
    expect(result.best?.format.id).toBe('png');
    expect(result.extensionMatches).toBe(false);
    expect(result.candidates.map((c) => c.format.id)).toContain('jpg');
    expect(result.best!.confidence).toBeGreaterThan(0.9);
  });

  it('tells Office Open XML, OpenDocument and EPUB apart by the first zip entry', () => {
    expect(best('x', zipEntry('word/document.xml'))).toBe('docx');
    expect(best('x', zipEntry('xl/workbook.xml'))).toBe('xlsx');
    expect(best('x', zipEntry('ppt/presentation.xml'))).toBe('pptx');
    expect(best('x.xlsx', zipEntry('[Content_Types].xml'))).toBe('xlsx');
    expect(best('x', zipEntry('mimetype', 'application/vnd.oasis.opendocument.text'))).toBe('odt');
    expect(best('x', zipEntry('mimetype', 'application/vnd.oasis.opendocument.text-template'))).toBe('ott');
    expect(best('x', zipEntry('mimetype', 'application/vnd.oasis.opendocument.spreadsheet'))).toBe('ods');
    expect(best('x', zipEntry('mimetype', 'application/epub+zip'))).toBe('epub');
    expect(best('x', zipEntry('photos/1.txt'))).toBe('zip');
  });

  it('reads what odd producers put first in EPUB and OpenDocument packages: a compressed mimetype, the container or manifest', () => {
    const container = '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>';
    const manifest = (type: string) => `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="${type}"/>`;
    expect(best('x', zipEntry('mimetype', 'application/epub+zip', { deflated: true }))).toBe('epub');
    expect(best('x', zipEntry('mimetype', 'application/vnd.oasis.opendocument.presentation', { extra: hex('5554 0500 03 00000000') }))).toBe('odp');
    expect(best('x', zipEntry('META-INF/container.xml', container, { deflated: true }))).toBe('epub');
    expect(best('x', zipEntry('OEBPS/content.opf', '<?xml version="1.0"?><package'))).toBe('epub');
    expect(best('x', zipEntry('META-INF/manifest.xml', manifest('application/vnd.oasis.opendocument.spreadsheet'), { deflated: true }))).toBe('ods');
    // A jar's manifest is no EPUB container.
    expect(best('x', zipEntry('META-INF/MANIFEST.MF', 'Manifest-Version: 1.0\r\n', { deflated: true }))).toBe('jar');
  });

  it('ranks the formats an Office Open XML package may be, at an honest confidence, and lets the name or MIME type decide', () => {
    for (const first of ['[Content_Types].xml', '_rels/.rels', 'docProps/app.xml']) {
      const unnamed = detect('x', zipEntry(first, '<?xml version="1.0"?>', { deflated: true }));
      expect(unnamed.best).toMatchObject({ format: { id: 'docx' }, evidence: 'content' });
      expect(unnamed.best!.confidence).toBeLessThanOrEqual(0.5);
      expect(unnamed.candidates.slice(1, 3).map((c) => c.format.id)).toEqual(['xlsx', 'pptx']);
      expect(unnamed.candidates.slice(1).every((c) => c.tie)).toBe(true);
      expect(unnamed.best!.tie).toBeUndefined();
      expect(best('book.xlsx', zipEntry(first))).toBe('xlsx');
      expect(detectFormat({ filename: 'upload', mimeHint: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', sizeBytes: 9000, header: zipEntry(first) }).best?.format.id).toBe('pptx');
    }
  });

  it("reads the main part's folder from a package relationship the 200 bytes cut after its first letter", () => {
    const rels = (target: string) =>
      '<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${target}`;
    const cut = (target: string) => zipEntry('_rels/.rels', rels(target), { deflated: true });
    expect(best('x', cut('x'))).toBe('xlsx');
    expect(best('x', cut('p'))).toBe('pptx');
    expect(best('x', cut('w'))).toBe('docx');
    // Cut before the target's first letter: still a tie the name breaks.
    expect(detect('x', cut('')).best!.confidence).toBeLessThanOrEqual(0.5);
    expect(best('x.pptx', cut(''))).toBe('pptx');
  });

  it('reads 200 zero bytes as the blank system area a disc image opens with, at a confidence a name overrides', () => {
    const blank = Buffer.alloc(200);
    const unnamed = detect('download', blank, 700 * 1024 * 1024);
    expect(unnamed.best?.format.id).toBe('iso');
    expect(unnamed.best!.confidence).toBeLessThanOrEqual(0.4);
    expect(detect('disc.iso', blank, 700 * 1024 * 1024).best!.confidence).toBeGreaterThan(unnamed.best!.confidence);
    // Too small for an image, or too few bytes to say anything.
    expect(detect('download', blank, 4096).best!.confidence).toBeLessThan(0.2);
    expect(detect('download', Buffer.alloc(16), 700 * 1024 * 1024).best).toBeNull();
  });

  it('tells MOBI 6 from KF8 (AZW3) when record 0 lies within the header, and ranks both otherwise', () => {
    const palmDb = (records: number, version: number) => {
      const head = Buffer.alloc(78 + records * 8 + 2 + 40);
      head.write('BOOKMOBI', 60, 'latin1');
      head.writeUInt16BE(records, 76);
      const recordZero = 78 + records * 8 + 2;
      for (let i = 0; i < records; i++) head.writeUInt32BE(recordZero + i * 4096, 78 + i * 8);
      head.write('MOBI', recordZero + 16, 'latin1');
      head.writeUInt32BE(version, recordZero + 36);
      return head.subarray(0, 200);
    };
    expect(best('x', palmDb(4, 8))).toBe('azw3');
    expect(best('x', palmDb(4, 6))).toBe('mobi');
    const long = detect('x', palmDb(30, 8));
    expect(long.candidates.map((c) => c.format.id)).toEqual(['mobi', 'azw3']);
    expect(long.best!.confidence).toBeLessThan(0.7);
    expect(best('book.azw3', palmDb(30, 8))).toBe('azw3');
  });

  it('reads PostScript as print drivers and font tools write it', () => {
    expect(best('x', text('%!\n/Times-Roman findfont 12 scalefont setfont\n'))).toBe('ps');
    expect(best('x', text('\x1b%-12345X@PJL JOB\r\n@PJL ENTER LANGUAGE = POSTSCRIPT\r\n%!PS-Adobe-3.0\r\n'))).toBe('ps');
    expect(best('x', text('%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n'))).toBe('eps');
    expect(best('x', text('%!PS-AdobeFont-1.0: Foo 001.000\n%%Title: Foo\n'))).toBe('pfb');
    expect(best('x', text('%!FontType1-1.0: Bar\n'))).toBe('pfb');
    expect(best('x', text('/* XPM */\nstatic char * icon_xpm[] = {\n"16 16 2 1",\n'))).toBe('xpm');
  });

  it('lets the extension pick within a family the bytes cannot split', () => {
    const ole2 = hex('d0cf11e0a1b11ae1 0000000000000000');
    expect(best('sheet.xls', ole2)).toBe('xls');
    expect(best('deck.ppt', ole2)).toBe('ppt');
    expect(best('mail.msg', ole2)).toBe('msg');
    expect(best('unknown', ole2)).toBe('doc');
    expect(detect('unknown', ole2).candidates.map((c) => c.format.id)).toEqual(['doc', 'xls', 'ppt', 'msg', 'msi']);
  });

  it('tells a tar inside gzip, bzip2 or xz by the name; the bytes alone say only the compression', () => {
    const gzip = (flags: number, name = '') => Buffer.concat([hex(`1f8b08${flags.toString(16).padStart(2, '0')} 00000000 0003`), text(name ? `${name}\0` : ''), Buffer.alloc(40, 0x55)]);
    const bzip2 = Buffer.concat([text('BZh91AY&SY'), Buffer.alloc(40, 0x55)]);
    const xz = Buffer.concat([hex('fd377a585a00 0004e6d6b446'), Buffer.alloc(40, 0x55)]);
    expect(['backup.tar.gz', 'backup.tgz', 'backup.gz', 'backup', 'backup.TAR.GZ'].map((name) => best(name, gzip(0)))).toEqual(['tgz', 'tgz', 'gz', 'gz', 'tgz']);
    expect(['backup.tar.bz2', 'backup.tbz2', 'backup.bz2', 'backup'].map((name) => best(name, bzip2))).toEqual(['tbz2', 'tbz2', 'bz2', 'bz2']);
    expect(['backup.tar.xz', 'backup.txz', 'backup.xz', 'backup'].map((name) => best(name, xz))).toEqual(['txz', 'txz', 'xz', 'xz']);
    const named = detect('backup.tar.gz', gzip(0));
    expect(named.best).toMatchObject({ evidence: 'content', confidence: 0.97 });
    expect(named.extensionMatches).toBe(true);
    // gzip kept the original name: a .tar inside, whatever the file is called now.
    expect(best('download', gzip(0x08, 'site-2024.tar'))).toBe('tgz');
    expect(best('download', gzip(0x08, 'notes.txt'))).toBe('gz');
    expect(best('download', Buffer.concat([hex('1f8b080c 00000000 0003 0400'), text('abcd'), text('x.tar\0'), Buffer.alloc(20)]))).toBe('tgz');
    // Not a gzip at all: the name alone vouches for tgz, and weakly.
    const words = detect('backup.tar.gz', text('just words, no archive here at all'));
    expect(words.best?.format.id).toBe('txt');
    expect(words.candidates.find((c) => c.format.id === 'tgz')).toMatchObject({ evidence: 'name', confidence: 0.1 });
  });

  it('reads ISO-BMFF brands, RIFF forms, EBML doctypes and Ogg codecs', () => {
    const ftyp = (brand: string) => Buffer.concat([hex('00000020'), text(`ftyp${brand}00000200isomiso2`)]);
    expect(best('x', ftyp('isom'))).toBe('mp4');
    expect(best('x', ftyp('M4A '))).toBe('m4a');
    expect(best('x', ftyp('qt  '))).toBe('mov');
    expect(best('x', ftyp('heic'))).toBe('heic');
    expect(best('x', ftyp('avif'))).toBe('avif');
    const riff = (form: string) => Buffer.concat([text('RIFF'), hex('24080000'), text(form)]);
    expect(best('x', riff('WAVE'))).toBe('wav');
    expect(best('x', riff('AVI '))).toBe('avi');
    expect(best('x', riff('WEBP'))).toBe('webp');
    expect(best('x', Buffer.concat([hex('1a45dfa3 9f4286810142f7810142f2810442f381084282'), text('webm')]))).toBe('webm');
    expect(best('x', Buffer.concat([hex('1a45dfa3 a34286810142f7810142f2810442f381084282'), text('matroska')]))).toBe('mkv');
    const ogg = (packet: string) => Buffer.concat([text('OggS'), Buffer.alloc(24), text(packet)]);
    expect(best('x', ogg('OpusHead'))).toBe('opus');
    expect(best('x', ogg('\x01vorbis'))).toBe('ogg');
  });

  it('sniffs text formats', () => {
    expect(best('x', text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10">'))).toBe('svg');
    expect(best('x', text('<!DOCTYPE html>\n<html><head><title>x</title>'))).toBe('html');
    expect(best('x', text('<?xml version="1.0"?>\n<rss version="2.0"><channel>'))).toBe('rss');
    expect(best('x', text('<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'))).toBe('atom');
    expect(best('x', text('<?xml version="1.0"?>\n<catalog><book id="1">'))).toBe('xml');
    expect(best('x', text('{\n  "name": "fileshift",\n  "version": 1\n}'))).toBe('json');
    expect(best('x', text('{"a":1}\n{"a":2}\n{"a":3}\n'))).toBe('ndjson');
    expect(best('x', text('{\\rtf1\\ansi\\deff0 {\\fonttbl'))).toBe('rtf');
    expect(best('x', text('name,age,city\nada,36,london\nalan,41,wilmslow\n'))).toBe('csv');
    expect(best('x', text('name\tage\nada\t36\nalan\t41\n'))).toBe('tsv');
    expect(best('x', text('# Title\n\nSome *text* and a [link](http://x).\n\n- item\n- item\n'))).toBe('md');
    expect(best('x', text('---\nname: fileshift\nversion: 1\nitems:\n  - a\n'))).toBe('yaml');
    expect(best('x', text('%!PS-Adobe-3.0\n%%Creator: x\n'))).toBe('ps');
    expect(best('x', text('WEBVTT\n\n00:00.000 --> 00:01.000\nhi\n'))).toBe('vtt');
    expect(best('x', text('{\n "cells": [\n  {\n   "cell_type": "markdown",\n'))).toBe('ipynb');
    expect(best('x', text('[Script Info]\nScriptType: v4.00+\nPlayResX: 384\n'))).toBe('ass');
    expect(best('x', text('#!/bin/bash\necho hi\n'))).toBe('sh');
    expect(best('x', text('Just some words in a sentence.\nAnd another line here.\n'))).toBe('txt');
  });

  it('reads text as real producers write it', () => {
    expect(best('x', text('version,codename,series,created,release,eol,eol-lts\n1.1,Buzz,buzz,1993-08-16,1996-06-17\n1.2,Rex,rex,1996-06-17,1996-12-12\n2.0,'))).toBe('csv');
    expect(best('x', text('"sku;qty;price"\n"A-1;3;9.99"\n"B-2;10;0.5"\n"C-3;1;120"\n'))).toBe('csv');
    expect(best('x', text(`name (every package served)\tnewest_version\tnotes about it ${'x'.repeat(150)}`))).toBe('tsv');
    expect(best('x', text('[global]\nresult_code = PASS\nresult_output = Test passed.\n\n[results]\nvalue0 = 1\n'))).toBe('ini');
    expect(best('x', text('[server]\nport = 8080\nhost = "0.0.0.0"\n'))).toBe('toml');
    expect(best('x', text('\\hypertarget{notes}{%\n\\subsection{Meeting notes}\\label{notes}}\n\n\\begin{enumerate}\n'))).toBe('tex');
    expect(best('x', text('..\n    This file is part of lazr.uri.\n\n    It is free software.\n'))).toBe('rst');
    expect(best('x', text('* Quarterly report\n  :PROPERTIES:\n  :CUSTOM_ID: q\n  :END:\nSee [[#a][the appendix]].\n'))).toBe('org');
    expect(best('x', text('#\n# Examples from the YAML specification\n#\n\n# Sequence of scalars\n---\n- Mark McGwire\n- Sammy Sosa\n'))).toBe('yaml');
    const utf32 = Buffer.alloc(4 + 4 * 40);
    utf32.writeUInt32LE(0xfeff, 0);
    [...'1\n00:00:01,000 --> 00:00:02,000\nHi\n'].forEach((char, i) => utf32.writeUInt32LE(char.codePointAt(0)!, 4 + i * 4));
    expect(best('x', utf32)).toBe('srt');
  });

  it('reads binary formats real producers write: gettext catalogues, SGI, J2K, M2TS, a tar inside gzip', () => {
    expect(best('x', Buffer.concat([hex('de120495 00000000 05000000 1c000000'), Buffer.alloc(40)]))).toBe('mo');
    expect(best('x', Buffer.concat([hex('95041 2de 00000000 00000005'), Buffer.alloc(40)]))).toBe('mo');
    expect(best('x', Buffer.concat([hex('01da 0001 0003 0040 0030 0003'), Buffer.alloc(100)]))).toBe('sgi');
    expect(best('x', Buffer.concat([hex('ff4fff51 0032 0000'), Buffer.alloc(60)]))).toBe('jp2');
    const packets = Buffer.alloc(200);
    packets[4] = 0x47;
    packets[196] = 0x47;
    expect(best('x', packets)).toBe('m2ts');
    const tarHeader = Buffer.alloc(512);
    tarHeader.write('notes.txt', 0);
    tarHeader.write('0000644\0', 100);
    tarHeader.write('00000000012\0', 124);
    tarHeader.write('14357223152\0', 136);
    tarHeader.write('0012345\0', 148);
    const tgz = Buffer.concat([hex('1f8b0800 00000000 0003'), deflateRawSync(Buffer.concat([tarHeader, Buffer.alloc(1024)]))]);
    expect(best('download', tgz.subarray(0, 200))).toBe('tgz');
  });

  it('trusts a specific textual extension over generic text, but never into a self-announcing or binary format', () => {
    expect(best('style.css', text('This is not obviously anything.\n'))).toBe('css');
    expect(best('server.log', text('2026-01-01 started\n2026-01-01 stopped\n'))).toBe('txt');
    expect(best('notes.json', text('Shopping list\nmilk\neggs\n'))).toBe('txt');
    expect(best('notes.srt', text('Shopping list\nmilk\neggs\n'))).toBe('txt');
    expect(best('notes.wasm', text('Shopping list\nmilk\neggs\n'))).toBe('txt');
  });

  it('handles BOMs and UTF-16', () => {
    expect(best('x', Buffer.concat([hex('efbbbf'), text('{"a": 1}')]))).toBe('json');
    expect(best('x', Buffer.concat([hex('fffe'), Buffer.from('<html><body>hi', 'utf16le')]))).toBe('html');
  });

  it('falls back to the extension at low confidence when the bytes say nothing', () => {
    const result = detect('notes.docx', hex('00 01 02 03 04 05 06 07 08 09 0a 0b'));
    expect(result.best?.format.id).toBe('docx');
    expect(result.best!.confidence).toBeLessThanOrEqual(0.5);
    expect(result.best!.evidence).toBe('name');
    expect(detect('noext', hex('00 01 02 03 04 05 06 07')).best).toBeNull();
  });

  it('says what vouches for each candidate: the bytes, or only the name', () => {
    expect(detect('a.png', PNG).best!.evidence).toBe('content');
    const misnamed = detect('holiday.jpg', PNG);
    expect(misnamed.candidates.map((c) => [c.format.id, c.evidence])).toEqual([['png', 'content'], ['jpg', 'name']]);
    expect(misnamed.candidates.some((c) => c.tie)).toBe(false);
    // Within a family the bytes show (a zip), the name picks the member: the bytes still vouch for it.
    expect(detect('report.docx', zipEntry('[Content_Types].xml')).best).toMatchObject({ evidence: 'content' });
    expect(detect('picture.png', Buffer.from('not an image at all, just some words in a file')).best?.evidence).not.toBe('name');
  });

  it('distrusts a size no whole file of the format can have', () => {
    const tiny = Buffer.concat([hex('00000020'), text('ftypisom')]);
    expect(detect('clip.mp4', tiny, 12).best!.confidence).toBeLessThan(0.5);
    expect(detect('clip.mp4', tiny, 100_000).best!.confidence).toBeGreaterThan(0.9);
  });

  it('detects nothing in an empty file', () => {
    expect(detect('empty.png', new Uint8Array(0), 0)).toEqual({ candidates: [], best: null, extensionMatches: false });
  });

  it('reads only the first 200 bytes', () => {
    const long = Buffer.concat([Buffer.alloc(300, 0x41), PNG]);
    expect(best('x', long)).toBe('txt');
  });
});

describe('suggestFilename', () => {
  const png = getFormat('png')!;
  it('keeps the base name and puts the canonical extension', () => {
    expect(suggestFilename('holiday.jpg', png)).toBe('holiday.png');
    expect(suggestFilename('holiday.PNG', png)).toBe('holiday.PNG');
    expect(suggestFilename('holiday', png)).toBe('holiday.png');
    expect(suggestFilename('my.holiday.2026.bin', png)).toBe('my.holiday.2026.png');
    expect(suggestFilename('report.final-version', png)).toBe('report.final-version.png');
    expect(suggestFilename('.hidden', png)).toBe('.hidden.png');
    expect(suggestFilename('dir/sub/file.jpg', png)).toBe('file.png');
    expect(suggestFilename('', png)).toBe('file.png');
    expect(suggestFilename('photo.jpeg', getFormat('jpg')!)).toBe('photo.jpeg');
  });
});

describe('assessConversionCompatibility', () => {
  const candidate = (id: string, confidence: number) => ({ format: getFormat(id)!, confidence, reasons: [], evidence: 'content' as const });
  const targetsOf = (id: string) => (id === 'png' ? ['jpg', 'webp'] : []);
  const assess = (best: ReturnType<typeof candidate> | null, sizeBytes = 1000) =>
    assessConversionCompatibility({ best, sizeBytes, maxSizeBytes: 41_943_040, targetsOf });

  it('grades by confidence, size and what the engines read', () => {
    expect(assess(null)).toMatchObject({ status: 'unknown', confidence: 0 });
    expect(assess(candidate('png', 0.97)).status).toBe('yes');
    expect(assess(candidate('png', 0.75)).status).toBe('likely');
    expect(assess(candidate('png', 0.35)).status).toBe('maybe');
    expect(assess(candidate('png', 0.97), 41_943_041)).toMatchObject({ status: 'no' });
    expect(assess(candidate('png', 0.97), 41_943_041).reason).toContain('41943040');
    expect(assess(candidate('exe', 0.98))).toMatchObject({ status: 'no' });
    expect(assess(candidate('png', 0.97)).reason).toContain('jpg');
  });
});
