/** Top-level groups of formats; the key API's `extensions_by_type` groups by these. */
export const FORMAT_CATEGORIES = [
  'image',
  'document',
  'spreadsheet',
  'presentation',
  'audio',
  'video',
  'ebook',
  'text',
  'archive',
  'data',
  'font',
  'code',
  'executable',
  'model3d',
] as const;

export type FormatCategory = (typeof FORMAT_CATEGORIES)[number];
