import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { z } from 'zod';
import { schemaRef } from './api-schema-registry.js';
import { ErrorResponseSchema, KeyApiErrorSchema } from './error-response.schema.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request (e.g. malformed JSON).',
  401: 'Missing or invalid credentials.',
  404: 'Not found.',
  409: 'Conflict.',
  410: 'Gone: the job or result expired.',
  413: 'Payload too large.',
  415: 'Unsupported media type.',
  422: 'Validation failed; error.details.fields lists each failing field.',
  429: 'Too many requests; retry after the Retry-After header (seconds).',
  500: 'Internal error.',
  503: 'A dependency is unavailable; retry later.',
};

const RETRY_AFTER_HEADER = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
};

export function ApiJsonBody(schema: z.ZodType, description?: string): MethodDecorator {
  return ApiBody({ schema: schemaRef(schema) as never, description, required: true });
}

export function ApiJsonResponse(status: number, schema: z.ZodType, description: string): MethodDecorator {
  return ApiResponse({ status, description, content: { 'application/json': { schema: schemaRef(schema) as never } } });
}

function errorResponses(schema: z.ZodType, statuses: number[]): MethodDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_DESCRIPTIONS[status] ?? 'Error.',
        content: { 'application/json': { schema: schemaRef(schema) as never } },
        ...(status === 429 || status === 503 ? { headers: RETRY_AFTER_HEADER as never } : {}),
      }),
    ),
  );
}

/** Documents error statuses with the x402 API's ErrorResponse shape. */
export const ApiErrors = (...statuses: number[]) => errorResponses(ErrorResponseSchema, statuses);

/** Documents error statuses with the key API's `{Status: "Error", Message}` shape. */
export const KeyApiErrors = (...statuses: number[]) => errorResponses(KeyApiErrorSchema, statuses);
