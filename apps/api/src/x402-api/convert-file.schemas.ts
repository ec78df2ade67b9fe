import { z } from 'zod';
import { apiSchema } from '../http-kit/api-schema-registry.js';
import { fileNameField } from '../http-kit/file-name.js';
import { MAX_JOIN_FILES, MAX_UPLOAD_BYTES } from '../config/upload-limit.js';
import { ConversionOptionsSchema } from '../conversion-requests/conversion-options.schema.js';
import { sourceUrlField } from '../source-urls/source-url.field.js';
import { WebhookUrlField } from '../webhooks/webhook-url.schema.js';

export const CreateConversionJobFieldsSchema = z.object({
  target_format: z.string().min(1).max(20).regex(/^[A-Za-z0-9]+$/, 'letters and digits only, without a dot').transform((v) => v.toLowerCase()),
  filename: fileNameField(),
  created_at: z.iso.datetime({ offset: true }),
  size_bytes: z.coerce.number().int().min(1).max(MAX_UPLOAD_BYTES),
  options: z.string().max(4096).optional(),
  // Checked against the outbound guard's rules by checkedCallerUrl, which names the field in its 422.
  webhook_url: z.string().optional(),
});

export const CreateConversionJobRequestSchema = apiSchema(
  'CreateConversionJobRequest',
  z.object({
    file: z
      .union([z.string().meta({ format: 'binary' }), z.array(z.string().meta({ format: 'binary' })).min(2).max(MAX_JOIN_FILES)])
      .describe(
        `The file, sent as application/octet-stream (binary part). Repeat the part (2 to ${MAX_JOIN_FILES}) to join several files into one, in order: ` +
          'PDFs merged into a PDF, pictures into a PDF a page each, documents into a PDF each converted then joined, any files into an archive (zip, tar…). ' +
          "Each part's own file name names its file (an archive's entry); size_bytes is their total, and prices the job.",
      ),
    target_format: z.string().min(1).max(20).describe('Output format without a dot, e.g. webp, mp3.'),
    filename: fileNameField().describe('Original file name: a hint for detection. No control characters.'),
    created_at: z.string().describe('File creation time, RFC 3339: a detection hint.'),
    size_bytes: z.number().int().min(1).max(MAX_UPLOAD_BYTES).describe('Must equal the bytes uploaded (of several files: their total).'),
    options: z
      .string()
      .max(4096)
      .optional()
      .describe('Optional: a JSON object of ConversionOptions, e.g. {"quality": 80, "width": 800}. Options that do not apply to this conversion are refused with 422 before any payment.'),
    webhook_url: WebhookUrlField,
  }),
  'multipart/form-data parts of POST /api/x402/v1/convert-file.',
);

export const CreateConversionJobFromUrlSchema = apiSchema(
  'CreateConversionJobFromUrl',
  z.object({
    source_url: sourceUrlField(`${MAX_UPLOAD_BYTES / 1024 / 1024} MB, as an upload`),
    target_format: z
      .string()
      .min(1)
      .max(20)
      .regex(/^[A-Za-z0-9]+$/, 'letters and digits only, without a dot')
      .transform((v) => v.toLowerCase())
      // Piped into a string so the OpenAPI document (written from the output side) still says "string".
      .pipe(z.string())
      .describe('Output format without a dot, e.g. webp, mp3.'),
    filename: fileNameField()
      .optional()
      .describe("A name for the file, a detection hint and the result's base name; by default the response's Content-Disposition filename, else the URL's last path segment."),
    options: ConversionOptionsSchema.optional(),
    webhook_url: WebhookUrlField,
  }),
  'application/json body of POST /api/x402/v1/convert-file: the file is fetched from source_url instead of uploaded. The price is the same.',
);

export const ConversionJobAcceptedSchema = apiSchema(
  'ConversionJobAccepted',
  z.object({
    job_id: z.string(),
    status: z.literal('processing'),
    status_url: z.string().url(),
    retry_after_seconds: z.number().int().min(1),
    message: z.string().optional(),
  }),
);

/** Idempotency-Key: 8..128 printable ASCII characters. */
export const IdempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{8,128}$/, 'must be 8..128 printable characters').optional();

export type CreateConversionJobFields = z.infer<typeof CreateConversionJobFieldsSchema>;
export type ConversionJobAccepted = z.infer<typeof ConversionJobAcceptedSchema>;
export type CreateConversionJobFromUrl = z.infer<typeof CreateConversionJobFromUrlSchema>;

export const DeleteJobResponseSchema = apiSchema('DeleteJobResponse', z.object({ success: z.boolean(), message: z.string() }));
