import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { z } from 'zod';
import { schemaRef } from './api-schema-registry.js';
import { CONFIGURED } from './configured-figures.js';
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

/** The key API's meanings; Message always says which case it is. */
const KEY_API_ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: malformed JSON, a missing or invalid field, an unknown extension, or an unsupported pair.',
  401: 'The Api-Key header names no key, an empty or a revoked key (leave the header out to use the no-key limits).',
  404: 'Not found.',
  413: `The upload is larger than the caller's limit (the key's, or ${CONFIGURED.anonymousMaxUpload} without a key).`,
  415: 'Unsupported media type.',
  429: 'Over the per-minute rate or the daily quota (of the key, or of the client IP without a key); retry after Retry-After.',
  500: 'Internal error.',
};

const RETRY_AFTER_HEADER = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
};

/** Sent on every answer of the key API that was counted (a key, or the no-key limits). */
export const KEY_API_RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed per minute.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current minute.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the current minute\'s window ends.', schema: { type: 'integer' } },
};

/** Headers the job status answers carry while polling makes sense (202 accepted, status queued or processing). */
export const POLL_HEADERS = {
  'Retry-After': { description: 'Seconds to wait before polling the status again (while queued or processing).', schema: { type: 'integer', minimum: 1 } },
};

export function ApiJsonBody(schema: z.ZodType, description?: string): MethodDecorator {
  return ApiBody({ schema: schemaRef(schema) as never, description, required: true });
}

export function ApiJsonResponse(status: number, schema: z.ZodType, description: string, headers?: Record<string, unknown>): MethodDecorator {
  return ApiResponse({ status, description, content: { 'application/json': { schema: schemaRef(schema) as never } }, ...(headers ? { headers: headers as never } : {}) });
}

/** A key API success answer: JSON, with the rate-limit headers. */
export const KeyApiJsonResponse = (status: number, schema: z.ZodType, description: string) => ApiJsonResponse(status, schema, description, KEY_API_RATE_LIMIT_HEADERS);

function errorResponse(schema: z.ZodType, status: number, description: string, headers: Record<string, unknown> = {}): MethodDecorator {
  const withRetry = status === 429 || status === 503 || status === 504 ? { ...headers, ...RETRY_AFTER_HEADER } : headers;
  return ApiResponse({
    status,
    description,
    content: { 'application/json': { schema: schemaRef(schema) as never } },
    ...(Object.keys(withRetry).length > 0 ? { headers: withRetry as never } : {}),
  });
}

/** Documents error statuses with the x402 API's ErrorResponse shape. */
export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(...statuses.map((status) => errorResponse(ErrorResponseSchema, status, ERROR_DESCRIPTIONS[status] ?? 'Error.')));

/** Documents error statuses with the key API's `{Status: "Error", Message}` shape and its default meanings. */
export const KeyApiErrors = (...statuses: number[]) => applyDecorators(...statuses.map((status) => KeyApiError(status, KEY_API_ERROR_DESCRIPTIONS[status] ?? 'Error.')));

/** One key API error status with what it means for this operation. */
export const KeyApiError = (status: number, description: string) =>
  errorResponse(KeyApiErrorSchema, status, description, status === 401 || status === 429 ? KEY_API_RATE_LIMIT_HEADERS : {});
