import { getFormat } from './format-catalogue.js';

/**
 * What a conversion cannot carry over because its target cannot hold it, said before anyone pays: the
 * catalogue lists these per pair, and the conversion matrix asserts each one exactly (a pair whose output loses
 * more than its list says fails).
 */
export const CONTENT_LOSSES = {
  'lossy-compression': 'Compressed with loss: the pixels or the sound are close to the source\'s, not equal to them.',
  transparency: 'Transparent areas become white: the target has no transparency.',
  'grey-levels': 'Colour is dropped: grey levels only.',
  'one-bit': 'One bit per pixel: black and white, grey levels drawn as a halftone.',
  palette: 'At most 256 colours.',
  'table-layout': 'Tables become text: their cells are kept in reading order, their rows and columns are not.',
  'still-frame': 'One picture of the video: no motion and no sound.',
  sound: 'The sound track is dropped.',
  picture: 'The picture is dropped: the sound only.',
  'cue-styles': 'Cue fonts, colours and positions are dropped: the words and timings are kept.',
  'cell-types': 'Every value is text: a number, date or true/false in the spreadsheet is a string in the records.',
} as const;

export type ContentLoss = keyof typeof CONTENT_LOSSES;

/** Targets written with a lossy codec whatever the source. */
const LOSSY_CODECS: ReadonlySet<string> = new Set([
  'jpg', 'webp', 'avif', 'heic',
  'mp3', 'ogg', 'opus', 'm4a', 'aac', 'wma', 'amr', 'ac3',
  'mp4', 'mov', 'mkv', 'webm', 'avi', 'wmv', 'flv', 'mpeg', 'm2ts', '3gp', 'ogv', 'swf', 'h264',
]);

/** Picture formats whose pixels can be transparent. */
const HOLDS_TRANSPARENCY: ReadonlySet<string> = new Set([
  'png', 'webp', 'avif', 'heic', 'tiff', 'gif', 'ico', 'icns', 'svg', 'psd', 'tga', 'jp2', 'jxl', 'xcf', 'exr', 'dds', 'xpm', 'qoi', 'sgi', 'bmp',
]);
/** Whether a picture format can hold transparent pixels (writers lay a picture on white for those that cannot). */
export const holdsTransparency = (format: string): boolean => HOLDS_TRANSPARENCY.has(format.toLowerCase());

const GREY_LEVELS_ONLY: ReadonlySet<string> = new Set(['pgm']);
const ONE_BIT: ReadonlySet<string> = new Set(['pbm', 'xbm']);
const PALETTE: ReadonlySet<string> = new Set(['gif']);
/** Formats whose tables are tables (rows and cells); a table read from one keeps its rows only where the target has them too. */
const HOLDS_TABLES: ReadonlySet<string> = new Set([
  'pdf', 'docx', 'doc', 'odt', 'ott', 'rtf', 'html', 'md', 'rst', 'tex', 'org', 'adoc', 'ipynb',
  'epub', 'mobi', 'azw3', 'fb2',
  'xlsx', 'xlsm', 'xls', 'ods', 'numbers', 'csv', 'tsv', 'pptx', 'odp',
]);
/** Spreadsheets whose cells have types (a number, a date, a boolean), unlike a CSV's. */
const TYPED_CELLS: ReadonlySet<string> = new Set(['xlsx', 'xlsm', 'xls', 'ods', 'numbers']);
const SUBTITLES_WITHOUT_STYLES: ReadonlySet<string> = new Set(['srt', 'vtt']);

/** Whether `source` can hold what `loss` takes away (an engine's loss of tables means nothing for a picture). */
export function canLose(source: string, loss: ContentLoss): boolean {
  if (loss === 'table-layout') return HOLDS_TABLES.has(source);
  if (loss === 'transparency') return HOLDS_TRANSPARENCY.has(source);
  if (loss === 'cell-types') return TYPED_CELLS.has(source);
  return true;
}

/** Pure: what converting `source` to `target` loses by the nature of the two formats (engines add their own, see their pairs). */
export function contentLosses(source: string, target: string): ContentLoss[] {
  const from = getFormat(source);
  const to = getFormat(target);
  if (!from || !to) return [];
  const losses: ContentLoss[] = [];
  if (LOSSY_CODECS.has(to.id)) losses.push('lossy-compression');
  // A video's still or GIF is a picture made from its frames.
  if ((from.category === 'image' || from.category === 'video') && to.category === 'image') {
    if (HOLDS_TRANSPARENCY.has(from.id) && !HOLDS_TRANSPARENCY.has(to.id)) losses.push('transparency');
    if (GREY_LEVELS_ONLY.has(to.id) && !GREY_LEVELS_ONLY.has(from.id) && !ONE_BIT.has(from.id)) losses.push('grey-levels');
    if (ONE_BIT.has(to.id) && !ONE_BIT.has(from.id)) losses.push('one-bit');
    if (PALETTE.has(to.id) && !PALETTE.has(from.id) && !ONE_BIT.has(from.id)) losses.push('palette');
  }
  if (HOLDS_TABLES.has(from.id) && to.id === 'txt') losses.push('table-layout');
  if (from.category === 'video') {
    if (to.category === 'image' && to.id !== 'gif') losses.push('still-frame');
    if (to.id === 'gif') losses.push('sound');
    if (to.category === 'audio') losses.push('picture');
  }
  if (from.id === 'ass' && SUBTITLES_WITHOUT_STYLES.has(to.id)) losses.push('cue-styles');
  return losses;
}
