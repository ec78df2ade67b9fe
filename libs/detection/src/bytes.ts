/** Small byte helpers over the ≤ 200-byte header. */
export const ascii = (header: Uint8Array, start: number, end: number): string => {
  let text = '';
  for (let i = start; i < Math.min(end, header.length); i++) text += String.fromCharCode(header[i]!);
  return text;
};

export const startsWith = (header: Uint8Array, bytes: readonly number[], offset = 0): boolean => {
  if (header.length < offset + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (header[offset + i] !== bytes[i]) return false;
  return true;
};

export const startsWithText = (header: Uint8Array, text: string, offset = 0): boolean => {
  if (header.length < offset + text.length) return false;
  for (let i = 0; i < text.length; i++) if (header[offset + i] !== text.charCodeAt(i)) return false;
  return true;
};

export const indexOfText = (header: Uint8Array, text: string, from = 0): number => {
  outer: for (let i = from; i <= header.length - text.length; i++) {
    for (let j = 0; j < text.length; j++) if (header[i + j] !== text.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
};

export const uint16le = (header: Uint8Array, offset: number): number => (header[offset] ?? 0) | ((header[offset + 1] ?? 0) << 8);
export const uint32be = (header: Uint8Array, offset: number): number =>
  (((header[offset] ?? 0) << 24) >>> 0) + ((header[offset + 1] ?? 0) << 16) + ((header[offset + 2] ?? 0) << 8) + (header[offset + 3] ?? 0);
