import { z } from 'zod';
import { fileNameField } from '../http-kit/file-name.js';
import { apiSchema } from '../http-kit/api-schema-registry.js';
import { MAX_UPLOAD_BYTES } from '../config/upload-limit.js';
import { RequestValidationError, validated } from '../errors/request-validation.error.js';
import { sourceUrlField } from '../source-urls/source-url.field.js';

export const HEADER_SAMPLE_BYTES = 200;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const DetectFileTypeFromSampleSchema = apiSchema(
  'DetectFileTypeFromSample',
  z
    .object({
      filename: fileNameField().describe('Original file name; the extension may be missing or wrong. No control characters.'),
      created_at: z.iso.datetime({ offset: true }).optional().describe('File creation time, RFC 3339.'),
      size_bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).describe('Size of the whole file in bytes.'),
      header_first_200_bytes_base64: z
        .string()
        .max(400)
        .regex(BASE64, 'must be standard base64')
        .refine((value) => Buffer.from(value, 'base64').length <= HEADER_SAMPLE_BYTES, {
          message: `must decode to at most ${HEADER_SAMPLE_BYTES} bytes`,
        })
        .describe('Base64 of the first 200 bytes of the file; all bytes if the file is shorter.'),
    })
    .refine((body) => Buffer.from(body.header_first_200_bytes_base64, 'base64').length <= body.size_bytes, {
      path: ['header_first_200_bytes_base64'],
      message: 'decodes to more bytes than size_bytes',
    }),
  'The file described by its name, size and first bytes: nothing is fetched.',
);

/** The fields of a described file, which a request naming source_url must not send as well. */
const SAMPLE_ONLY_FIELDS = ['size_bytes', 'header_first_200_bytes_base64', 'created_at'] as const;

export const DetectFileTypeFromUrlSchema = apiSchema(
  'DetectFileTypeFromUrl',
  z
    .object({
      source_url: sourceUrlField(`${MAX_UPLOAD_BYTES / 1024 / 1024} MB (what convert-file takes)`),
      filename: fileNameField()
        .optional()
        .describe("A name for the file, a detection hint; by default the response's Content-Disposition filename, else the URL's last path segment."),
    }),
  'The file at a URL: after the payment is verified the service fetches it (its first bytes and its size), then detects, then settles.',
);

export const DetectFileTypeRequestSchema = apiSchema(
  'DetectFileTypeRequest',
  z.union([DetectFileTypeFromSampleSchema, DetectFileTypeFromUrlSchema]),
  'Either the file described (name, size, first 200 bytes), or its source_url for the service to fetch. The price is the same.',
);

/** The body a request sent, checked against its own shape: one naming source_url is the URL's, so errors name its fields. */
export function parseDetectFileTypeRequest(body: unknown): DetectFileTypeRequest {
  if (body === null || typeof body !== 'object' || !('source_url' in body)) return validated(DetectFileTypeFromSampleSchema, body);
  const both = SAMPLE_ONLY_FIELDS.filter((field) => field in body);
  if (both.length > 0) throw new RequestValidationError(both.map((field) => ({ field, message: "send either source_url or the file's size and first bytes, not both" })));
  return validated(DetectFileTypeFromUrlSchema, body);
}

export const DetectedFormatSchema = apiSchema(
  'DetectedFormat',
  z.object({
    format: z.string().describe('Lowercase canonical format identifier, e.g. png, docx, mp4.'),
    description: z.string(),
    confidence: z.number().min(0).max(1),
    confidence_percent: z.number().int().min(0).max(100),
    canonical_extension: z.string().describe('Without the leading dot.'),
  }),
);

export const AlternativeFormatSchema = apiSchema(
  'AlternativeFormat',
  z.object({
    format: z.string().describe('Lowercase canonical format identifier.'),
    description: z.string(),
    confidence: z.number().min(0).max(1),
  }),
  'Another format the first bytes fit as well (an Office Open XML package is a document, a workbook or a presentation: which lies past the first 200 bytes). A file name with its extension decides between them.',
);

export const ConvertFileCompatibilitySchema = apiSchema(
  'ConvertFileCompatibility',
  z.object({
    status: z.enum(['yes', 'likely', 'maybe', 'no', 'unknown']),
    confidence: z.number().min(0).max(1),
    reason: z.string(),
  }),
  'Estimate of whether POST /api/x402/v1/convert-file can convert this file.',
);

export const DetectFileTypeResponseSchema = apiSchema(
  'DetectFileTypeResponse',
  z.object({
    detected: z.boolean(),
    input_filename: z.string(),
    suggested_filename: z.string().nullable(),
    detected_format: DetectedFormatSchema.nullable(),
    convertible_to: z.array(z.string()),
    convert_file_compatibility: ConvertFileCompatibilitySchema,
  }),
);

export type DetectFileTypeRequest = z.infer<typeof DetectFileTypeRequestSchema>;
export type DetectFileTypeFromSample = z.infer<typeof DetectFileTypeFromSampleSchema>;
export type DetectFileTypeFromUrl = z.infer<typeof DetectFileTypeFromUrlSchema>;
export type DetectFileTypeResponse = z.infer<typeof DetectFileTypeResponseSchema>;
export type AlternativeFormat = z.infer<typeof AlternativeFormatSchema>;

export const KeyApiDetectJsonSchema = apiSchema(
  'KeyApiDetectJson',
  z.object({
    Status: z.literal('OK'),
    detected: z.boolean(),
    format: z.string().nullable(),
    description: z.string().nullable(),
    mime_type: z.string().nullable(),
    confidence: z.number(),
    confidence_percent: z.number(),
    canonical_extension: z.string().nullable(),
    extension_matches: z.boolean(),
    suggested_filename: z.string().nullable(),
    convertible_to: z.array(z.string()),
    alternatives: z.array(AlternativeFormatSchema).describe('Other formats the bytes fit, most likely first.'),
    message: z.string().describe('The same sentence the text/plain answer gives.'),
  }),
  'JSON answer of POST /api/v1/detect_file_type (Accept: application/json).',
);

export type KeyApiDetectJson = z.infer<typeof KeyApiDetectJsonSchema>;
