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
