/** Deterministic words of 2 to 9 letters: text that compresses like prose does not (so a DOCX of 10 KB is several pages). */
export function words(count: number, seed: number): string {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => Array.from({ length: 2 + Math.floor(next() * 8) }, () => String.fromCharCode(97 + Math.floor(next() * 26))).join('')).join(' ');
}
