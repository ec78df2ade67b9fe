import { z } from 'zod';
import { apiSchema } from './api-schema-registry.js';

export const ErrorResponseSchema = apiSchema(
  'ErrorResponse',
  z.object({
    error: z.object({
      code: z.string().describe('Machine-readable error code, e.g. validation_error, result_not_ready.'),
      message: z.string().describe('Human-readable explanation.'),
      details: z.record(z.string(), z.unknown()).optional().describe('Extra facts, e.g. the failing fields.'),
    }),
  }),
  'Error body of the x402 API (/api/x402/v1).',
);

export const KeyApiErrorSchema = apiSchema(
  'KeyApiError',
  z.object({ Status: z.literal('Error'), Message: z.string() }),
  'Error body of the key API (/api/v1 and /tmp downloads).',
);
