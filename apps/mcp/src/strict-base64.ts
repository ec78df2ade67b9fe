/** Standard base64 (RFC 4648 §4), padding optional; line breaks and spaces between groups are ignored. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The bytes of `text`, or null when it is not base64. Node's decoder skips characters it does not
 * know, so "notbase64!!" would decode to a few bytes and be paid for as a file: refuse it instead.
 */
export function decodeBase64Strictly(text: string): Uint8Array | null {
  const compact = text.replace(/\s+/g, '');
  if (!BASE64.test(compact) || compact.length % 4 === 1) return null;
  const padded = compact.length % 4 === 0 ? compact : compact + '='.repeat(4 - (compact.length % 4));
  return Buffer.from(padded, 'base64');
}
