import { z } from 'zod';
import { OCR_LANGUAGE_CODES } from '../engines/ocr/ocr-languages.js';

/**
 * Every option a conversion may carry, with its schema: the one catalogue. Each engine pair says which of
 * them it honours; a request may only carry the options of its plan's steps.
 */
export const OPTION_SCHEMAS = {
  quality: z.number().int().min(1).max(100).describe('Lossy image quality, 1..100.'),
  width: z.number().int().min(1).max(16_384).describe('Output width in pixels (with height: the box to fit in).'),
  height: z.number().int().min(1).max(16_384).describe('Output height in pixels.'),
  fit: z.enum(['cover', 'contain', 'fill', 'inside', 'outside']).describe('How the image fits width × height (default inside: keep the aspect ratio, never crop).'),
  pages: z
    .string()
    .regex(/^[1-9]\d{0,4}(-[1-9]\d{0,4})?(,[1-9]\d{0,4}(-[1-9]\d{0,4})?)*$/, 'must be 1-based pages and ranges such as "1-3,5"')
    .describe('Pages to convert, e.g. "1-3,5".'),
  dpi: z.number().int().min(36).max(600).describe('Raster resolution of rendered pages, 36..600 (default 150).'),
  bitrate: z.enum(['64k', '96k', '128k', '160k', '192k', '256k', '320k']).describe('Audio bitrate of lossy outputs.'),
  pdfa: z.enum(['1b', '2b', '3b']).describe('Write PDF/A of this level (archival PDF).'),
  compress: z.enum(['screen', 'ebook', 'printer', 'prepress']).describe('Re-compress a PDF for this use (screen is smallest).'),
  paper: z.enum(['a4', 'letter', 'legal', 'a3', 'a5']).describe("Paper size of a PDF printed from HTML (default: the page's CSS @page size, else a4)."),
  margin: z.number().int().min(0).max(50).describe('Margin of a PDF printed from HTML, in millimetres on every side, 0..50 (default 10).'),
  ocr: z.literal(true).describe('true: a searchable PDF, the page images with an invisible text layer read by OCR (pictures, and PDF pages that have no text).'),
  languages: z
    // Codes in any case ("zh-Hant", "DE"), lower-cased before they are checked.
    .array(z.string().toLowerCase().pipe(z.enum(OCR_LANGUAGE_CODES)))
    .min(1)
    .max(4)
    .describe('Languages OCR reads, most used first, as ISO 639 or tesseract codes, e.g. ["de"] or ["ja", "en"] (default: by the script found on the page; English for Latin).'),
} as const;

export type OptionName = keyof typeof OPTION_SCHEMAS;
export const OPTION_NAMES = Object.keys(OPTION_SCHEMAS) as OptionName[];

/** The options of one conversion, validated. */
export type ConversionOptions = { -readonly [N in OptionName]?: z.output<(typeof OPTION_SCHEMAS)[N]> };

export type OptionsValidation = { ok: true; options: ConversionOptions } | { ok: false; problems: Array<{ option: string; message: string }> };

/**
 * Pure: checks `raw` (the client's JSON object) against the options `allowed` for a plan. Unknown and
 * inapplicable options are refused, naming the allowed ones (or, where engines offer the conversion with options of
 * their own, each engine's `choices`); each value against its schema.
 */
export function validateOptions(raw: unknown, allowed: readonly OptionName[], choices?: ReadonlyArray<readonly OptionName[]>): OptionsValidation {
  if (raw === undefined || raw === null) return { ok: true, options: {} };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, problems: [{ option: '(options)', message: 'must be a JSON object' }] };
  const problems: Array<{ option: string; message: string }> = [];
  const options: Record<string, unknown> = {};
  const allowedText = choices
    ? `this conversion takes ${choices.map((names) => (names.length > 0 ? names.join(', ') : 'no options')).join('; or ')} (not mixed: each set is another engine's)`
    : allowed.length > 0
      ? `this conversion takes ${allowed.join(', ')}`
      : 'this conversion takes no options';
  for (const [name, value] of Object.entries(raw)) {
    if (!(allowed as readonly string[]).includes(name)) {
      problems.push({ option: name, message: `${Object.hasOwn(OPTION_SCHEMAS, name) ? 'does not apply here' : 'is not an option'}; ${allowedText}` });
      continue;
    }
    const parsed = OPTION_SCHEMAS[name as OptionName].safeParse(value);
    if (parsed.success) options[name] = parsed.data;
    else problems.push({ option: name, message: `${parsed.error.issues[0]?.message ?? 'invalid'} (${describeAllowed(name as OptionName)})` });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, options: options as ConversionOptions };
}

/** The allowed values of an option, in words. */
export function describeAllowed(name: OptionName): string {
  const schema = OPTION_SCHEMAS[name] as z.ZodType;
  if (schema instanceof z.ZodEnum) return `one of ${(schema.options as string[]).join(', ')}`;
  if (schema instanceof z.ZodNumber) return `an integer from ${schema.minValue} to ${schema.maxValue}`;
  if (schema instanceof z.ZodLiteral) return `only ${JSON.stringify(schema.value)}`;
  if (schema instanceof z.ZodArray) return `a list of 1 to 4 of ${(schema.element as z.ZodPipe<z.ZodString, z.ZodEnum>).out.options.join(', ')}`;
  return 'pages such as "1-3,5"';
}

/** Pure: the pages "1-3,5" selects within `pageCount` pages, in order, without duplicates. */
export function selectedPages(pages: string | undefined, pageCount: number): number[] {
  if (!pages) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const selected = new Set<number>();
  for (const range of pages.split(',')) {
    const [first, last = first] = range.split('-').map(Number) as [number, number?];
    for (let page = first; page <= Math.min(last!, pageCount); page++) selected.add(page);
  }
  return [...selected].sort((a, b) => a - b);
}
