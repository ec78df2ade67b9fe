/** Small real files that client-side tests send: made here, so no test depends on a file on disk. */
import { crc32, deflateSync } from 'node:zlib';

/** A small real PNG (8×8, solid green), made with sharp once and kept as bytes. */
export function tinyPng(): Uint8Array {
  return Uint8Array.from(
    Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000080000000808020000004b6d29dc0000000970485973000003e8000003e801b57b526b' +
        '00000010494441540899636058c5801d0d2d09009bb82a81ec41172b0000000049454e44ae426082',
      'hex',
    ),
  );
}

/** `seconds` of a 440 Hz tone, 8 kHz mono 16-bit, as a WAV file. */
export function toneWav(seconds = 1): Uint8Array {
  const samples = 8000 * seconds;
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write('RIFF', 0);
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write('WAVEfmt ', 8);
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(8000, 24);
  buffer.writeUInt32LE(16000, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36);
  buffer.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) buffer.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)), 44 + i * 2);
  return Uint8Array.from(buffer);
}

/**
 * A PNG of `width`×`height` pixels of RGB noise (the same for the same arguments): an input whose conversion takes a
 * while (about a second to GIF at 400×400 here), for tests that need a job still running when they look.
 */
export function noisePng(width: number, height: number): Uint8Array {
  const rowBytes = 1 + width * 3; // each row starts with its filter type, 0 (none)
  const pixels = Buffer.alloc(rowBytes * height);
  let state = 1;
  for (let row = 0; row < height; row++) {
    for (let i = 1; i < rowBytes; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      pixels[row * rowBytes + i] = state >>> 24;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Uint8Array.from(Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(pixels, { level: 1 })), chunk('IEND', Buffer.alloc(0))]));
}

/**
 * A small real PDF of one page per text (Helvetica, US Letter), written by hand with a correct cross-reference table:
 * for joins and PDF operations in client tests, which read it back with qpdf or poppler.
 */
export function textPdf(pageTexts: readonly string[]): Uint8Array {
  // 1 catalog, 2 pages, 3 font, then per page: its page object and its content stream.
  const pageObject = (index: number) => 4 + index * 2;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Count ${pageTexts.length} /Kids [${pageTexts.map((_, i) => `${pageObject(i)} 0 R`).join(' ')}] >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  pageTexts.forEach((text, index) => {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageObject(index) + 1} 0 R >>`);
    const content = `BT /F1 24 Tf 72 700 Td (${text.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj ET`;
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  });
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = Buffer.byteLength(body, 'latin1');
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(Buffer.from(body, 'latin1'));
}
