import type { ApiName } from './api-of-request.js';

/** The two documented error shapes: the x402 API's `ErrorResponse` and the key API's `{Status, Message}`. */
export interface PublicError {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  /** Sent as Retry-After. */
  retryAfterSeconds?: number;
}

/** The key API (and its download path) answers `{Status: "Error", Message}`; everything else the ErrorResponse shape. */
export function errorBodyFor(api: ApiName, error: PublicError): Record<string, unknown> {
  if (api === 'key') return { Status: 'Error', Message: error.message };
  return { error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } };
}
