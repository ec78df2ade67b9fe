/** What starts a list item: a bullet, or a number, letter or roman numeral with "." or ")". */
export interface ListMarker {
  /** The characters of the marker and the space after it. */
  length: number;
  ordered: boolean;
  /** The item's own number ("3." is 3); undefined for letters and roman numerals, which count by place. */
  number?: number;
}

const BULLET = /^\s*[•◦▪▫‣⁃●○■□∙·*–-](?:\s+|$)/;
const ORDERED = /^\s*(?:(\d{1,3})|[a-z]|[ivxlc]{1,6})[.)](?:\s+|$)/;

/** Pure: the list marker a line's text starts with, if any. */
export function listMarker(text: string): ListMarker | undefined {
  const bullet = BULLET.exec(text);
  if (bullet) return { length: bullet[0].length, ordered: false };
  const ordered = ORDERED.exec(text);
  if (!ordered) return undefined;
  return { length: ordered[0].length, ordered: true, ...(ordered[1] ? { number: Number(ordered[1]) } : {}) };
}
