import { z } from 'zod';
import type { EngineDescriptor } from './engine-descriptor.js';

/**
 * The options any engine may honour, known to the platform itself. An engine's own options (OCR's `languages`) are
 * declared by that engine, in its descriptor's `options`; the catalogue (`optionCatalogue`) is both. Each engine pair
 * says which options it honours; a request may only carry the options of its plan's steps.
 */
export const PLATFORM_OPTION_SCHEMAS = {
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
  // File operations two kinds of engine honour (a PDF's pages and a picture turn alike; pictures and documents lose
  // their metadata to exiftool, sound and video to ffmpeg); an engine's own operations are declared in its descriptor.
  rotate: z.literal([90, 180, 270]).describe('Turn clockwise by 90, 180 or 270 degrees (a picture; a PDF\'s pages, all or those of rotate_pages).'),
  strip_metadata: z.literal(true).describe('true: remove metadata (EXIF and GPS, authors, editing history, encoder and location tags); the content stays as it is.'),
} as const;

/**
 * The options engines declare (their descriptors' `options`), by name. Each engine adds its own to this interface
 * (`declare module` beside its descriptor), so the platform's types know them without importing the engine.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the engines' declaration merging
export interface EngineOptionSchemas {}

/** Every option's schema: the platform's and the engines'. */
export type OptionSchemas = typeof PLATFORM_OPTION_SCHEMAS & EngineOptionSchemas;
export type OptionName = keyof OptionSchemas;

/** The options of one conversion, validated. */
export type ConversionOptions = { -readonly [N in OptionName]?: OptionSchemas[N] extends z.ZodType ? z.output<OptionSchemas[N]> : never };

export type OptionsValidation = { ok: true; options: ConversionOptions } | { ok: false; problems: Array<{ option: string; message: string }> };

/** The options of a build: every schema, and how a request's options are checked against them. */
export interface OptionCatalogue {
  schemas: OptionSchemas;
  names: OptionName[];
  /**
   * Pure: checks `raw` (the client's JSON object) against the options `allowed` for a plan. Unknown and inapplicable
   * options are refused, naming the allowed ones (or, where engines offer the conversion with options of their own,
   * each engine's `choices`); each value against its schema.
   */
  validate(raw: unknown, allowed: readonly OptionName[], choices?: ReadonlyArray<readonly OptionName[]>): OptionsValidation;
  /** The allowed values of an option, in words. */
  describeAllowed(name: OptionName): string;
  /**
   * Options whose values are secrets (a PDF's passwords), marked `.meta({ secret: true })`: kept only while the job
   * needs them, never in a log, a dedupe key or an answer.
   */
  secretNames: OptionName[];
}

/**
 * The catalogue of a build's engines: the platform's options, then those each engine declares, in the engines'
 * order. An option two engines declare, or one a pair honours that no one declares, is a mistake of the build.
 */
export function optionCatalogue(descriptors: ReadonlyArray<Pick<EngineDescriptor, 'id' | 'options' | 'pairs'>>): OptionCatalogue {
  const schemas: Record<string, z.ZodType> = { ...PLATFORM_OPTION_SCHEMAS };
  for (const descriptor of descriptors) {
    for (const [name, schema] of Object.entries(descriptor.options ?? {})) {
      if (Object.hasOwn(schemas, name)) throw new Error(`the option ${name} of the engine ${descriptor.id} is declared twice`);
      schemas[name] = schema;
    }
  }
  const undeclared = descriptors.flatMap((descriptor) => descriptor.pairs.flatMap((pair) => [...(pair.options ?? []), ...(pair.chosenBy ?? [])]).filter((name) => !Object.hasOwn(schemas, name)).map((name) => `${descriptor.id}: ${name}`));
  if (undeclared.length > 0) throw new Error(`options no engine declares: ${[...new Set(undeclared)].join(', ')}`);
  const describeAllowed = (name: OptionName) => describeSchema(schemas[name]!);
  return {
    schemas: schemas as unknown as OptionSchemas,
    names: Object.keys(schemas) as OptionName[],
    secretNames: Object.keys(schemas).filter((name) => (schemas[name]!.meta() as { secret?: boolean } | undefined)?.secret === true) as OptionName[],
    describeAllowed,
    validate(raw, allowed, choices) {
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
          problems.push({ option: name, message: `${Object.hasOwn(schemas, name) ? 'does not apply here' : 'is not an option'}; ${allowedText}` });
          continue;
        }
        const parsed = schemas[name]!.safeParse(value);
        if (parsed.success) options[name] = parsed.data;
        else problems.push({ option: name, message: `${parsed.error.issues[0]?.message ?? 'invalid'} (${describeAllowed(name as OptionName)})` });
      }
      return problems.length > 0 ? { ok: false, problems } : { ok: true, options: options as ConversionOptions };
    },
  };
}

/** A schema's allowed values, in words. */
function describeSchema(schema: z.ZodType): string {
  if (schema instanceof z.ZodEnum) return `one of ${(schema.options as string[]).join(', ')}`;
  if (schema instanceof z.ZodNumber) return schema.format === 'safeint' ? `an integer from ${schema.minValue} to ${schema.maxValue}` : `a number from ${schema.minValue} to ${schema.maxValue}`;
  if (schema instanceof z.ZodLiteral) return schema.values.size > 1 ? `one of ${[...schema.values].map((value) => JSON.stringify(value)).join(', ')}` : `only ${JSON.stringify(schema.value)}`;
  if (schema instanceof z.ZodObject) return `an object with ${Object.keys(schema.shape).join(', ')}`;
  if (schema instanceof z.ZodString && !schema.description?.includes('"1-3,5"')) return `a string of at most ${schema.maxLength ?? 'any'} characters`;
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
