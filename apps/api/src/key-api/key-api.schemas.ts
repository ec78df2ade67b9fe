import { z } from 'zod';
import { MAX_JOIN_FILES } from '../config/upload-limit.js';
import { ConversionOptionsSchema } from '../conversion-requests/conversion-options.schema.js';
import { apiSchema } from '../http-kit/api-schema-registry.js';
import { CONFIGURED } from '../http-kit/configured-figures.js';
import { fileNameField } from '../http-kit/file-name.js';
import { sourceUrlField } from '../source-urls/source-url.field.js';
import { WebhookUrlField } from '../webhooks/webhook-url.schema.js';

const extension = (what: string) =>
  z
    .string()
    .regex(/^\.?[A-Za-z0-9]{1,20}$/, 'an extension such as png, letters and digits only')
    .transform((value) => value.replace(/^\./, '').toLowerCase())
    // Piped into a string so the OpenAPI document (written from the output side) still says "string".
    .pipe(z.string())
    .describe(`${what} extension, without a dot, e.g. png.`);

export const KeyApiUploadRequestSchema = apiSchema(
  'KeyApiUploadRequest',
  z.object({ file: z.string().meta({ format: 'binary', description: 'The file (binary part).' }) }),
  'multipart/form-data parts of POST /api/v1/upload.',
);

export const KeyApiUploadFromUrlSchema = apiSchema(
  'KeyApiUploadFromUrl',
  z.object({
    source_url: sourceUrlField(`the caller's upload limit (the key's, ${CONFIGURED.keyMaxUpload} by default; ${CONFIGURED.anonymousMaxUpload} without a key)`),
    filename: fileNameField()
      .optional()
      .describe("The file's name (its extension is kept in Filename); by default the response's Content-Disposition filename, else the URL's last path segment."),
  }),
  'application/json body of POST /api/v1/upload: the service fetches the file from source_url instead of receiving it.',
);

export const KeyApiUploadResponseSchema = apiSchema(
  'KeyApiUploadResponse',
  z.object({
    Status: z.literal('OK'),
    Filename: z.string().describe('Server-side, unguessable name of the upload; pass it to /api/v1/convert. Valid 24 hours.'),
  }),
);

export const KeyApiConvertRequestSchema = apiSchema(
  'KeyApiConvertRequest',
  z.object({
    filename: z.string().min(1).max(64).describe('The Filename returned by /api/v1/upload.'),
    ext_in: extension('Source'),
    ext_out: extension('Target'),
    join: z
      .array(z.string().min(1).max(64))
      .min(1)
      .max(MAX_JOIN_FILES - 1)
      .optional()
      .describe(
        `Other uploads' Filenames, joined after filename into one ext_out file, in order (${MAX_JOIN_FILES} files at most, within the upload size limit together): ` +
          'PDFs merged, pictures into a PDF a page each, documents into a PDF each converted then joined, any files into an archive (zip, tar…). ' +
          "ext_in then names filename's type only; each other file's bytes and upload name decide its own.",
      ),
    options: ConversionOptionsSchema.optional(),
    webhook_url: WebhookUrlField,
  }),
);

export const KeyApiConvertResponseSchema = apiSchema(
  'KeyApiConvertResponse',
  z.object({
    Status: z.literal('OK'),
    file: z.object({
      ext_out: z.string().describe('Target extension.'),
      urls: z.array(z.string()).describe('Download paths relative to the base URL, under /tmp/: one, or one per page in page order (pdf → png). Valid 24 hours; no key needed.'),
      notes: z.array(z.string()).optional().describe('What the conversion did that you should know, e.g. the metadata strip_metadata removed.'),
    }),
  }),
  'The converted file. Status is not in the original spec response; it is always "OK" here.',
);

export const KeyApiListRequestSchema = apiSchema('KeyApiListRequest', z.object({ ext_in: extension('Source') }));

/** Not in the original spec: what each conversion loses, so a caller knows before converting. */
const TargetLossesSchema = z
  .record(z.string(), z.array(z.string()))
  .describe('Output extension → what converting to it loses of the input, in sentences (a table made plain text, transparency made white…). Targets that keep the content are not listed.');

export const KeyApiListResponseSchema = apiSchema(
  'KeyApiListResponse',
  z.object({ Status: z.literal('OK'), extensions: z.array(z.string()).describe('Every output extension, alphabetically.'), losses: TargetLossesSchema }),
);

export const KeyApiListByTypeResponseSchema = apiSchema(
  'KeyApiListByTypeResponse',
  z.object({
    Status: z.literal('OK'),
    extensions_by_type: z
      .record(z.string(), z.record(z.string(), z.union([z.literal(0), z.literal(1)])))
      .describe('Category → extension → 1 (recommended) or 0 (available).'),
    menu_popular: z.array(z.record(z.string(), z.array(z.string()))).describe('Recommended targets per category, the input category first.'),
    type: z.string().describe('Category of ext_in.'),
    losses: TargetLossesSchema,
  }),
);

export type KeyApiConvertRequest = z.output<typeof KeyApiConvertRequestSchema>;
export type KeyApiConvertResponse = z.output<typeof KeyApiConvertResponseSchema>;
export type KeyApiListResponse = z.output<typeof KeyApiListResponseSchema>;
export type KeyApiListByTypeResponse = z.output<typeof KeyApiListByTypeResponseSchema>;
